import { beforeAll, describe, expect, it } from '@jest/globals';
import { contextFixture } from '../../../../test/support/test-context.js';
import { EventStore, storeInternals } from '../event-store.js';
import type { StoredEvent } from '../event.types.js';
import { op, type Projection } from '../projection.js';
import { ProjectionRegistry } from '../projection-registry.js';
import { ProjectionReplayer } from '../replay.js';
import { PersonalDataKeys } from './personal-data-keys.js';
import { personalData } from './registry.js';

type Person = { id: number; name: string; email: string; note: string | null; shoeSize: number };

personalData.declare<Person>(['sealing.PersonJoined', 'sealing.PersonRenamed', 'sealing.PersonNoted'], {
  owner: (d) => d.id,
  fields: { name: 'Anonymised user', email: (d: Person) => `gone-${d.id}@anonymised.invalid`, note: null },
});

/** What a projection of the person sees: their clear fields while the key lives, placeholders after. */
function people(name: string, table: string): Projection {
  return {
    name,
    version: 1,
    tables: [table],
    handles: ['sealing.PersonJoined', 'sealing.PersonRenamed'],
    project(e: StoredEvent) {
      const d = e.data as Person;
      return [
        op.upsert(table, ['id'], { id: d.id, name: d.name, email: d.email, note: d.note, shoe_size: d.shoeSize }),
      ];
    },
  };
}

/** Names no other spec uses, unique per run: the events table is shared by the tests of one database. */
const run = Date.now() % 1_000_000;
const uid = (n: number) => 900_000_000 + run * 100 + n;

describe('personal data sealed in the log', () => {
  const ctx = contextFixture({
    also: (app) => ({
      internal: storeInternals(app.get(EventStore)),
      replayer: app.get(ProjectionReplayer),
      keys: app.get(PersonalDataKeys),
    }),
  });

  beforeAll(async () => {
    for (const table of ['people_live', 'people_replayed'])
      await ctx.ds.query(
        `CREATE TABLE ${table} (id bigint PRIMARY KEY, name text NOT NULL, email text NOT NULL, note text, shoe_size int NOT NULL)`,
      );
    const registry = ctx.app.get(ProjectionRegistry);
    registry.add(people('people-live', 'people_live'));
    registry.add(people('people-replayed', 'people_replayed'));
  });

  const person = (n: number, extra: Partial<Person> = {}): Person => ({
    id: uid(n),
    name: `Zebedee Quux-${run}-${n}`,
    email: `zq-${run}-${n}@example.org`,
    note: `bad knees ${run}-${n}`,
    shoeSize: 40 + n,
    ...extra,
  });

  /** The log's text for the person's stream: what a dump of the events table would show. */
  const logText = async (id: number) =>
    (
      (await ctx.ds.query(`SELECT string_agg(data::text, ' ') AS t FROM events WHERE stream_id = $1`, [
        `sealing.Person-${id}`,
      ])) as { t: string }[]
    )[0]!.t;

  const join = (p: Person) =>
    ctx.store.handle(
      `sealing.Person-${p.id}`,
      () => null,
      () => [{ type: 'sealing.PersonJoined', data: p }],
      { expect: 'no_stream' },
    );

  it('stores none of a user’s strings in the events table, while reads and projections see them', async () => {
    const p = person(1);
    const { events } = await join(p);
    expect(events[0]!.data).toEqual(p);
    // The transactional path too (a second event, appended at 'any').
    const renamed = { ...p, name: `Zebedee Renamed-${run}` };
    await ctx.internal.transaction((tx) =>
      ctx.internal.append(tx, [
        {
          streamId: `sealing.Person-${p.id}`,
          expectedVersion: 'any',
          events: [{ type: 'sealing.PersonRenamed', data: renamed }],
        },
      ]),
    );
    const text = await logText(p.id);
    for (const s of [p.name, p.email, p.note!, renamed.name, 'Zebedee', 'example.org', 'knees'])
      expect(text).not.toContain(s);
    expect(text).toContain(`"shoeSize": ${p.shoeSize}`);
    const read = await ctx.store.readStream(`sealing.Person-${p.id}`);
    expect(read.map((e) => e.data)).toEqual([p, renamed]);
    const [row] = await ctx.ds.query(`SELECT name, email, note FROM people_live WHERE id = $1`, [p.id]);
    expect(row).toEqual({ name: renamed.name, email: p.email, note: p.note });
    const [key] = await ctx.ds.query(`SELECT sealed_key, destroyed_at FROM personal_data_keys WHERE user_id = $1`, [
      p.id,
    ]);
    expect(key.sealed_key).toMatch(/^v1\./);
    expect(key.destroyed_at).toBeNull();
  });

  it('gives concurrent first appends for one new user one key, which opens all of them', async () => {
    const p = person(2);
    await Promise.all(
      [1, 2, 3, 4, 5, 6].map((i) =>
        ctx.store.handle(
          `sealing.Person-${p.id}-${i}`,
          () => null,
          // Not projected: six writers upserting one row of two tables would race on those rows, not on the key.
          () => [{ type: 'sealing.PersonNoted', data: { ...p, shoeSize: i } }],
          { expect: 'no_stream' },
        ),
      ),
    );
    const keys = await ctx.ds.query(`SELECT user_id FROM personal_data_keys WHERE user_id = $1`, [p.id]);
    expect(keys).toHaveLength(1);
    for (const i of [1, 2, 3, 4, 5, 6]) {
      const [e] = await ctx.store.readStream(`sealing.Person-${p.id}-${i}`);
      expect(e!.data).toEqual({ ...p, shoeSize: i });
    }
  });

  it('after destroy: reads and replay give the placeholders; another user is unaffected', async () => {
    const gone = person(3);
    const kept = person(4);
    await join(gone);
    await join(kept);
    await ctx.internal.transaction((tx) => ctx.keys.destroy([gone.id], tx));
    const placeholders = { ...gone, name: 'Anonymised user', email: `gone-${gone.id}@anonymised.invalid`, note: null };
    expect((await ctx.store.readStream(`sealing.Person-${gone.id}`))[0]!.data).toEqual(placeholders);
    expect((await ctx.store.readStream(`sealing.Person-${kept.id}`))[0]!.data).toEqual(kept);
    const [{ transaction_id }] = await ctx.ds.query(`SELECT transaction_id::text FROM events WHERE stream_id = $1`, [
      `sealing.Person-${gone.id}`,
    ]);
    expect((await ctx.store.readTransaction(transaction_id))[0]!.data).toEqual(placeholders);
    await ctx.replayer.replay(['people-replayed']);
    const rows = await ctx.ds.query(
      `SELECT id::int, name, email, note, shoe_size FROM people_replayed WHERE id = ANY($1) ORDER BY id`,
      [[gone.id, kept.id]],
    );
    expect(rows).toEqual([
      { id: gone.id, name: 'Anonymised user', email: placeholders.email, note: null, shoe_size: gone.shoeSize },
      { id: kept.id, name: kept.name, email: kept.email, note: kept.note, shoe_size: kept.shoeSize },
    ]);
    // Appending for a user whose key is destroyed writes the placeholders, and no new key.
    await ctx.internal.transaction((tx) =>
      ctx.internal.append(tx, [
        {
          streamId: `sealing.Person-${gone.id}`,
          expectedVersion: 'any',
          events: [{ type: 'sealing.PersonRenamed', data: { ...gone, name: 'Back Again' } }],
        },
      ]),
    );
    expect(await logText(gone.id)).not.toContain('Back Again');
    const [key] = await ctx.ds.query(`SELECT sealed_key FROM personal_data_keys WHERE user_id = $1`, [gone.id]);
    expect(key.sealed_key).toBeNull();
  });

  it('destroys the key of a user who has none yet, so none is made later', async () => {
    const p = person(5);
    await ctx.internal.transaction((tx) => ctx.keys.destroy([p.id], tx));
    await join(p);
    const text = await logText(p.id);
    expect(text).not.toContain(p.name);
    // The projections of that append saw what the log holds, not the data given.
    const [row] = await ctx.ds.query(`SELECT name, email, note FROM people_live WHERE id = $1`, [p.id]);
    expect(row).toEqual({ name: 'Anonymised user', email: `gone-${p.id}@anonymised.invalid`, note: null });
    expect((await ctx.store.readStream(`sealing.Person-${p.id}`))[0]!.data).toEqual({
      ...p,
      name: 'Anonymised user',
      email: `gone-${p.id}@anonymised.invalid`,
      note: null,
    });
  });
});

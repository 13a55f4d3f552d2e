import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { contextFixture } from '../../../test/support/test-context.js';
import { ConcurrencyError } from './errors.js';
import { Appender } from './appender.js';
import { EventStore, storeInternals } from './event-store.js';
import { LOCKS } from './locks.js';
import type { StoredEvent } from './event.types.js';
import { op, type Projection } from './projection.js';
import { ProjectionRegistry } from './projection-registry.js';

/**
 * EventStore.commit: one stream, a transaction of its own, in one statement where it can be.
 * Each projection below pushes it down another path; every path must give the same rows.
 */
const notes: Projection = {
  name: 'test-notes',
  version: 1,
  tables: ['commit_notes'],
  handles: ['test.Noted', 'test.Renoted'],
  project: (e: StoredEvent) => {
    const d = e.data as { id: string; text: string };
    return e.type === 'test.Noted'
      ? [op.upsert('commit_notes', ['id'], { id: d.id, text: d.text, at: e.recordedAt, version: e.streamVersion })]
      : [op.update('commit_notes', { id: d.id }, { text: d.text, version: e.streamVersion })];
  },
};
/** Reads the position, which only the database assigns: the store must insert first. */
const positions: Projection = {
  name: 'test-positions',
  version: 1,
  tables: ['commit_positions'],
  handles: ['test.Positioned'],
  project: (e: StoredEvent) => [
    op.upsert('commit_positions', ['id'], { id: (e.data as { id: string }).id, position: e.position }),
  ],
};
/** Two statements on one table (delete, then upsert): undefined in one statement, so it may not share it. */
const twice: Projection = {
  name: 'test-twice',
  version: 1,
  tables: ['commit_twice'],
  handles: ['test.Twice'],
  project: (e: StoredEvent) => {
    const id = (e.data as { id: string }).id;
    return [
      op.delete('commit_twice', { id }),
      op.upsert('commit_twice', ['id'], { id, n: 1 }),
      op.update('commit_twice', { id }, { n: 2 }),
    ];
  },
};
const failing: Projection = {
  name: 'test-failing',
  version: 1,
  tables: ['commit_notes'],
  handles: ['test.Broken'],
  project: () => {
    throw new Error('projection bug');
  },
};

describe('EventStore.commit', () => {
  // `ctx.internal`: the transactional writes domain code does not get, to test them and to seed streams.
  const ctx = contextFixture({ also: (app) => ({ internal: storeInternals(app.get(EventStore)) }) });

  beforeAll(async () => {
    await ctx.ds.query(
      `CREATE TABLE commit_notes (id text PRIMARY KEY, text text NOT NULL, at timestamptz NOT NULL, version int NOT NULL)`,
    );
    await ctx.ds.query(`CREATE TABLE commit_positions (id text PRIMARY KEY, position bigint NOT NULL)`);
    await ctx.ds.query(`CREATE TABLE commit_twice (id text PRIMARY KEY, n int NOT NULL)`);
    const registry = ctx.app.get(ProjectionRegistry);
    for (const p of [notes, positions, twice, failing]) registry.add(p);
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  /** Whether `work` took the transaction path rather than the one statement. */
  const viaTransaction = async (work: () => Promise<unknown>) => {
    const spy = jest.spyOn(Appender.prototype, 'transaction');
    await work();
    return spy.mock.calls.length > 0;
  };
  const note = (id: string, expectedVersion: number | 'no_stream' | 'any', text = 'hello', type = 'test.Noted') =>
    ctx.internal.commit(
      { streamId: `note-${id}`, expectedVersion, events: [{ type, data: { id, text } }] },
      { organisationId: 4, actorId: 2 },
    );
  const row = async (id: string) =>
    (await ctx.ds.query(`SELECT text, at, version FROM commit_notes WHERE id = $1`, [id]))[0];

  it('stores the event and its projection rows together, and returns what the log holds', async () => {
    const id = randomUUID();
    let result: Awaited<ReturnType<typeof note>> | undefined;
    expect(await viaTransaction(async () => (result = await note(id, 'no_stream')))).toBe(false);
    const [stored] = await ctx.store.readStream(`note-${id}`);
    expect(result!.nextExpectedVersion).toBe(1);
    expect(result!.events).toEqual([stored]);
    expect(stored).toMatchObject({
      type: 'test.Noted',
      streamVersion: 1,
      data: { id, text: 'hello' },
      metadata: { organisationId: 4, actorId: 2 },
    });
    expect(await row(id)).toEqual({ text: 'hello', at: stored!.recordedAt, version: 1 });
  });

  it('inserts first when a projection reads the position, which only the database assigns', async () => {
    const id = randomUUID();
    expect(await viaTransaction(() => note(id, 'no_stream', 'p', 'test.Positioned'))).toBe(true);
    const [stored] = await ctx.store.readStream(`note-${id}`);
    const [{ position }] = await ctx.ds.query(`SELECT position FROM commit_positions WHERE id = $1`, [id]);
    expect(Number(position)).toBe(stored!.position);
  });

  it('appends at a known version, and refuses a stale or a too-new one, writing nothing', async () => {
    const id = randomUUID();
    await note(id, 'no_stream');
    await ctx.internal.commit({
      streamId: `note-${id}`,
      expectedVersion: 1,
      events: [{ type: 'test.Renoted', data: { id, text: 'second' } }],
    });
    for (const stale of ['no_stream', 1, 5] as const) {
      await expect(
        ctx.internal.commit({
          streamId: `note-${id}`,
          expectedVersion: stale,
          events: [{ type: 'test.Renoted', data: { id, text: 'lost' } }],
        }),
      ).rejects.toBeInstanceOf(ConcurrencyError);
    }
    expect((await ctx.store.readStream(`note-${id}`)).map((e) => e.streamVersion)).toEqual([1, 2]);
    expect(await row(id)).toMatchObject({ text: 'second', version: 2 });
  });

  it('refuses a stale version of a commit of two events without writing either', async () => {
    const id = randomUUID();
    await note(id, 'no_stream');
    await ctx.internal.commit({
      streamId: `note-${id}`,
      expectedVersion: 1,
      events: [{ type: 'test.Renoted', data: { id, text: 'second' } }],
    });
    // Version 2 is taken, version 3 is free: the statement must not keep version 3 alone.
    const two = [
      { type: 'test.Renoted', data: { id, text: 'lost 2' } },
      { type: 'test.Renoted', data: { id, text: 'lost 3' } },
    ];
    await expect(
      ctx.internal.commit({ streamId: `note-${id}`, expectedVersion: 1, events: two }),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    await expect(
      ctx.internal.transaction((tx) =>
        ctx.internal.append(tx, [{ streamId: `note-${id}`, expectedVersion: 1, events: two }]),
      ),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    expect((await ctx.store.readStream(`note-${id}`)).map((e) => e.streamVersion)).toEqual([1, 2]);
    expect(await row(id)).toMatchObject({ text: 'second', version: 2 });
  });

  it('lets exactly one of many concurrent creators of a stream win', async () => {
    const id = randomUUID();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => note(id, 'no_stream', `writer ${i}`)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ConcurrencyError);
    expect(await ctx.store.readStream(`note-${id}`)).toHaveLength(1);
  });

  it('appends at an unknown version (any) through the transaction path', async () => {
    const id = randomUUID();
    await note(id, 'no_stream');
    const any = () =>
      ctx.internal.commit({
        streamId: `note-${id}`,
        expectedVersion: 'any',
        events: [{ type: 'test.Renoted', data: { id, text: 'any' } }],
      });
    expect(await viaTransaction(any)).toBe(true);
    expect(await row(id)).toMatchObject({ text: 'any', version: 2 });
  });

  it('gives a projection that writes one table twice the same rows as in a transaction', async () => {
    const id = randomUUID();
    const commit = () =>
      ctx.internal.commit({
        streamId: `twice-${id}`,
        expectedVersion: 'no_stream',
        events: [{ type: 'test.Twice', data: { id } }],
      });
    expect(await viaTransaction(commit)).toBe(true);
    expect(await ctx.ds.query(`SELECT n FROM commit_twice WHERE id = $1`, [id])).toEqual([{ n: 2 }]);
  });

  // Needs two transactions at once, which embedded PGlite serialises (see event-store.int-spec).
  (process.env.TEST_PG_ADMIN_URL ? it : it.skip)(
    "waits behind a replay's swap instead of deadlocking with it",
    async () => {
      // What a replay's swap does: the projections lock exclusively, then its tables exclusively.
      const replay = new pg.Client({ connectionString: ctx.env.config.database.url });
      await replay.connect();
      try {
        await replay.query('BEGIN');
        await replay.query(`SELECT pg_advisory_xact_lock(${LOCKS.projections})`);
        const id = randomUUID();
        const spy = jest.spyOn(Appender.prototype, 'transaction');
        const write = note(id, 'no_stream', 'during the swap');
        await new Promise((r) => setTimeout(r, 300));
        expect(spy).toHaveBeenCalled();
        // A write that waited for the lock while holding commit_notes would deadlock here.
        await replay.query(`SET LOCAL lock_timeout = '5s'`);
        await replay.query('LOCK TABLE commit_notes IN ACCESS EXCLUSIVE MODE');
        await replay.query('COMMIT');
        await write;
        expect(await row(id)).toMatchObject({ text: 'during the swap', version: 1 });
      } finally {
        await replay.end();
      }
    },
  );

  it('writes nothing when a projection fails', async () => {
    const id = randomUUID();
    await expect(note(id, 'no_stream', 'x', 'test.Broken')).rejects.toThrow('projection bug');
    expect(await ctx.store.readStream(`note-${id}`)).toEqual([]);
    expect(await ctx.ds.query(`SELECT 1 FROM events WHERE stream_id = $1`, [`note-${id}`])).toEqual([]);
  });
});

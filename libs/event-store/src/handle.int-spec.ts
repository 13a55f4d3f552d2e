import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type EntityManager } from 'typeorm';
import { DomainError, PreparedStatements } from '#app/platform';
import { contextFixture } from '../../../test/support/test-context.js';
import { ConcurrencyError } from './errors.js';
import { Appender } from './appender.js';
import { EventStore, storeInternals } from './event-store.js';
import type { NewEvent, StoredEvent, StreamAppend } from './event.types.js';
import { op, type Projection } from './projection.js';
import { ProjectionRegistry } from './projection-registry.js';
import { StreamReader } from './stream-reader.js';

/**
 * EventStore.handle, and `write` over several streams without gates or facts (docs/adr/0005,
 * docs/adr/0011): the one-statement write path, and the multi-stream insert under it and under
 * `transaction` + `append`.
 */
interface Tally {
  readonly count: number;
  readonly last: string;
}
type TallyEvent = { type: 'test.Counted' | 'test.Positioned'; data: { id: string; note: string } };
const evolve = (state: Tally | null, e: TallyEvent): Tally | null => ({
  count: (state?.count ?? 0) + 1,
  last: e.data.note,
});
const counted = (id: string, note: string, type = 'test.Counted'): NewEvent => ({ type, data: { id, note } });

const tallies: Projection = {
  name: 'test-tallies',
  version: 1,
  tables: ['handle_tallies'],
  handles: ['test.Counted'],
  project: (e: StoredEvent) => {
    const d = e.data as { id: string; note: string };
    return [op.upsert('handle_tallies', ['id'], { id: d.id, note: d.note, version: e.streamVersion })];
  },
};
/** Reads the position, which only the database assigns: the store must insert first (the transaction path). */
const positions: Projection = {
  name: 'test-handle-positions',
  version: 1,
  tables: ['handle_positions'],
  handles: ['test.Positioned'],
  project: (e: StoredEvent) => [
    op.upsert('handle_positions', ['id'], { id: (e.data as { id: string }).id, position: e.position }),
  ],
};

describe('EventStore.handle, and write over several streams', () => {
  // `ctx.internal`: the transactional writes domain code does not get, to test them and to seed streams.
  const ctx = contextFixture({ also: (app) => ({ internal: storeInternals(app.get(EventStore)) }) });

  beforeAll(async () => {
    await ctx.ds.query(`CREATE TABLE handle_tallies (id text PRIMARY KEY, note text NOT NULL, version int NOT NULL)`);
    await ctx.ds.query(`CREATE TABLE handle_positions (id text PRIMARY KEY, position bigint NOT NULL)`);
    const registry = ctx.app.get(ProjectionRegistry);
    for (const p of [tallies, positions]) registry.add(p);
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  const stream = () => `tally-${randomUUID()}`;
  const versions = async (streamId: string) => (await ctx.store.readStream(streamId)).map((e) => e.streamVersion);
  const tally = async (id: string) =>
    (await ctx.ds.query(`SELECT note, version FROM handle_tallies WHERE id = $1`, [id]))[0];
  const seed = (streamId: string, n: number) =>
    n === 0
      ? Promise.resolve()
      : ctx.internal.transaction((tx) =>
          ctx.internal.append(tx, [
            {
              streamId,
              expectedVersion: 'no_stream',
              events: Array.from({ length: n }, (_, i) => counted(streamId, `seed ${i + 1}`)),
            },
          ]),
        );
  /** Whether `work` went through a transaction rather than one statement. */
  const viaTransaction = async (work: () => Promise<unknown>) => {
    const spy = jest.spyOn(Appender.prototype, 'transaction');
    await work();
    return spy.mock.calls.length > 0;
  };
  /** Another writer's `work`, done once right after a write's next read of its streams: a lost race. */
  const movedAfterRead = (work: () => Promise<unknown>) => {
    const read = StreamReader.prototype.readFolded;
    jest.spyOn(StreamReader.prototype, 'readFolded').mockImplementationOnce(async function (this: StreamReader, ...a) {
      return read.apply(this, a).then(async (folded) => (await work(), folded));
    });
  };

  describe('handle', () => {
    it('folds the stream for decide and appends at the version read, projection included, in one statement', async () => {
      const id = stream();
      await seed(id, 2);
      const seen: (Tally | null)[] = [];
      let result: Awaited<ReturnType<typeof ctx.store.handle<Tally, TallyEvent>>> | undefined;
      const oneStatement = !(await viaTransaction(async () => {
        result = await ctx.store.handle(
          id,
          evolve,
          (state) => (seen.push(state), [counted(id, `after ${state!.count}`)]),
          {
            metadata: { actorId: 9 },
          },
        );
      }));
      expect(seen).toEqual([{ count: 2, last: 'seed 2' }]);
      expect(oneStatement).toBe(true);
      expect(result!.state).toEqual({ count: 2, last: 'seed 2' });
      expect(result!.nextExpectedVersion).toBe(3);
      const stored = await ctx.store.readStream(id);
      expect(stored.map((e) => e.streamVersion)).toEqual([1, 2, 3]);
      expect(result!.events).toEqual([stored[2]]);
      expect(stored[2]).toMatchObject({ data: { id, note: 'after 2' }, metadata: { actorId: 9 } });
      expect(await tally(id)).toEqual({ note: 'after 2', version: 3 });
    });

    it("gives decide null for a new stream and the attempt's instant, and creates it at version 1", async () => {
      const id = stream();
      const before = Date.now();
      let given: number | undefined;
      const result = await ctx.store.handle(id, evolve, (state, now) => {
        given = now;
        return [counted(id, state === null ? 'new' : 'old')];
      });
      expect(given).toBeGreaterThanOrEqual(before);
      expect(given).toBeLessThanOrEqual(Date.now());
      expect(result.nextExpectedVersion).toBe(1);
      expect(await tally(id)).toEqual({ note: 'new', version: 1 });
    });

    it('loses to a writer that appended after the read: ConcurrencyError, and only the other write is stored', async () => {
      const id = stream();
      await seed(id, 1);
      const race = ctx.store.handle(id, evolve, async (state) => {
        // Another command appends between this one's read and its write.
        await ctx.store.handle(id, evolve, () => [counted(id, 'the other writer')]);
        return [counted(id, `after ${state!.count}`)];
      });
      await expect(race).rejects.toBeInstanceOf(ConcurrencyError);
      await expect(race).rejects.toMatchObject({ streamId: id, expected: '1' });
      expect(await versions(id)).toEqual([1, 2]);
      expect(await tally(id)).toEqual({ note: 'the other writer', version: 2 });
    });

    it('lets exactly one of many concurrent handlers of one stream win', async () => {
      const id = stream();
      await seed(id, 1);
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => ctx.store.handle(id, evolve, () => [counted(id, `writer ${i}`)])),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won.length).toBeGreaterThanOrEqual(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ConcurrencyError);
      expect(await versions(id)).toEqual(Array.from({ length: 1 + won.length }, (_, i) => i + 1));
    });

    it('appends nothing when decide throws, and passes its error on', async () => {
      const id = stream();
      await seed(id, 1);
      const refused = ctx.store.handle(id, evolve, () => {
        throw new DomainError('validation', 'not allowed');
      });
      await expect(refused).rejects.toThrow('not allowed');
      expect(await versions(id)).toEqual([1]);
      expect(await tally(id)).toEqual({ note: 'seed 1', version: 1 });
    });

    it('writes nothing for a decision without events', async () => {
      const id = stream();
      await seed(id, 1);
      const sent = [jest.spyOn(ctx.ds, 'query'), jest.spyOn(PreparedStatements.prototype, 'query')];
      const transaction = jest.spyOn(Appender.prototype, 'transaction');
      const result = await ctx.store.handle(id, evolve, () => []);
      expect(result).toEqual({ streamId: id, nextExpectedVersion: 1, events: [], state: { count: 1, last: 'seed 1' } });
      // The read alone (named; embedded, the named query goes through ds.query unnamed).
      expect([
        ...new Set(sent.flatMap((spy) => spy.mock.calls.map((c) => String(c[0]).trim().split(/\s/)[0]))),
      ]).toEqual(['SELECT']);
      expect(transaction).not.toHaveBeenCalled();
      expect(await versions(id)).toEqual([1]);
    });

    it('runs a projection that reads the position (the transaction path) with the same result', async () => {
      const id = stream();
      let result: Awaited<ReturnType<typeof ctx.store.handle>> | undefined;
      expect(
        await viaTransaction(
          async () => (result = await ctx.store.handle(id, evolve, () => [counted(id, 'p', 'test.Positioned')])),
        ),
      ).toBe(true);
      const [stored] = await ctx.store.readStream(id);
      expect(result!.events).toEqual([stored]);
      const [{ position }] = await ctx.ds.query(`SELECT position FROM handle_positions WHERE id = $1`, [id]);
      expect(Number(position)).toBe(stored!.position);
    });

    it("without a read: 'no_stream' refuses an existing stream, 'any' queues behind the stream's lock", async () => {
      const id = stream();
      await seed(id, 1);
      const decide = jest.fn((state: Tally | null, _now: number) => [counted(id, String(state))]);
      await expect(ctx.store.handle(id, evolve, decide, { expect: 'no_stream' })).rejects.toBeInstanceOf(
        ConcurrencyError,
      );
      expect(decide).toHaveBeenCalledWith(null, expect.any(Number));
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, () => ctx.store.handle(id, evolve, () => [counted(id, 'any')], { expect: 'any' })),
      );
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(await versions(id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    });
  });

  describe('write over several streams, without gates or facts', () => {
    it('given named streams, when the decision appends to some of them, then it saw each state and they are appended together at the versions read, in one statement', async () => {
      const [a, b, c] = [stream(), stream(), stream()];
      await seed(a, 2);
      await seed(b, 1);
      let written: Awaited<ReturnType<typeof ctx.store.write>> | undefined;
      const seen: unknown[] = [];
      const oneStatement = !(await viaTransaction(async () => {
        written = await ctx.store.write({
          streams: () => ({
            a: { streamId: a, evolve },
            b: { streamId: b, evolve },
            c: { streamId: c, expect: 'no_stream' as const },
          }),
          decide: (states) => {
            seen.push(states.a, states.b, states.c);
            return [
              // Two tally rows (one statement writes a row once: the same row twice takes the transaction path).
              { streamId: c, events: [counted(c, 'c1'), counted(`${c}-2`, 'c2')] },
              { streamId: a, events: [counted(a, `a after ${states.a!.count}`)] },
            ];
          },
          retries: 0,
        });
      }));
      expect(oneStatement).toBe(true);
      expect(seen).toEqual([{ count: 2, last: 'seed 2' }, { count: 1, last: 'seed 1' }, null]);
      expect(written!.states).toEqual({ a: { count: 2, last: 'seed 2' }, b: { count: 1, last: 'seed 1' }, c: null });
      // One result per stream appended to (b was read, given no events, and is not checked).
      expect(
        written!.appended.map((r) => [r.streamId, r.nextExpectedVersion, r.events.map((e) => e.streamVersion)]),
      ).toEqual([
        [c, 2, [1, 2]],
        [a, 3, [3]],
      ]);
      expect(await versions(a)).toEqual([1, 2, 3]);
      expect(await versions(b)).toEqual([1]);
      expect(await versions(c)).toEqual([1, 2]);
      expect(written!.appended[0]!.events).toEqual(await ctx.store.readStream(c));
      expect(written!.events.map((e) => e.position)).toEqual(
        [...written!.events].map((e) => e.position).sort((x, y) => x - y),
      );
      expect(await tally(a)).toEqual({ note: 'a after 2', version: 3 });
      expect(await tally(c)).toEqual({ note: 'c1', version: 1 });
      expect(await tally(`${c}-2`)).toEqual({ note: 'c2', version: 2 });
    });

    it('given a stream that moved after the read, when the write may not run again, then it appends to none of its streams and names that stream (409)', async () => {
      const [a, b] = [stream(), stream()];
      await seed(a, 1);
      await seed(b, 1);
      movedAfterRead(() => ctx.store.handle(b, evolve, () => [counted(b, 'the other writer')]));
      const race = ctx.store.write({
        streams: () => ({ a: { streamId: a, evolve }, b: { streamId: b, evolve } }),
        decide: () => [
          { streamId: a, events: [counted(a, 'lost')] },
          { streamId: b, events: [counted(b, 'lost')] },
        ],
        retries: 0,
      });
      await expect(race).rejects.toMatchObject({ streamId: b, code: 'conflict' });
      await expect(race).rejects.toBeInstanceOf(ConcurrencyError);
      expect(await versions(a)).toEqual([1]);
      expect(await tally(a)).toEqual({ note: 'seed 1', version: 1 });
      expect(await tally(b)).toEqual({ note: 'the other writer', version: 2 });
    });

    it('given a decision for a stream it did not name, or one stream under two names, then the write refuses and writes nothing', async () => {
      const a = stream();
      await expect(
        ctx.store.write({
          streams: () => ({ a: { streamId: a, evolve } }),
          decide: () => [{ streamId: stream(), events: [counted(a, 'x')] }],
        }),
      ).rejects.toThrow(/not one of its streams/);
      await expect(
        ctx.store.write({
          streams: () => ({ a: { streamId: a, evolve }, again: { streamId: a, evolve } }),
          decide: () => [{ streamId: a, events: [counted(a, 'x')] }],
        }),
      ).rejects.toThrow(/named twice/);
      await expect(
        ctx.store.write({
          streams: () => ({ a: { streamId: a, evolve } }),
          decide: () => [
            { streamId: a, events: [counted(a, 'x')] },
            { streamId: a, events: [counted(a, 'y')] },
          ],
        }),
      ).rejects.toThrow(/twice/);
      expect(await versions(a)).toEqual([]);
    });
  });

  describe('many streams in one statement', () => {
    const N = 100;
    /** N streams holding 0, 1 or 2 events: each appends at its own version. */
    const seeded = async () => {
      const ids = Array.from({ length: N }, (_, k) => `shift-${String(k).padStart(3, '0')}-${randomUUID()}`);
      await ctx.internal.transaction((tx) =>
        ctx.internal.append(
          tx,
          ids
            .filter((_, k) => k % 3 > 0)
            .map((id, k) => ({
              streamId: id,
              expectedVersion: 'no_stream',
              events: Array.from({ length: (k % 2) + 1 }, () => counted(id, 'seed')),
            })),
        ),
      );
      return Promise.all(ids.map(async (id) => ({ id, version: (await ctx.store.readStream(id)).length })));
    };
    const appendsTo = (streams: { id: string; version: number }[], note = 'shift') =>
      streams.map((s): StreamAppend => ({
        streamId: s.id,
        expectedVersion: s.version === 0 ? 'no_stream' : s.version,
        events: [counted(s.id, note)],
      }));
    const storedVersions = async (ids: string[]) =>
      (await ctx.ds.query(
        `SELECT stream_id, max(stream_version)::int AS v FROM events WHERE stream_id = ANY($1) GROUP BY stream_id`,
        [ids],
      )) as { stream_id: string; v: number }[];
    const shifts = async (streams: { id: string }[]) =>
      (
        await ctx.ds.query(`SELECT count(*)::int AS n FROM handle_tallies WHERE id = ANY($1) AND note = 'shift'`, [
          streams.map((s) => s.id),
        ])
      )[0].n as number;
    /** `append` inside a transaction, counting the statements it sends. */
    const appendCounting = async (appends: StreamAppend[]) => {
      let statements = 0;
      const results = await ctx.internal.transaction(async (tx: EntityManager) => {
        const query = tx.query.bind(tx);
        jest
          .spyOn(tx, 'query')
          .mockImplementation(
            ((text: string, params?: unknown[]) => (statements++, query(text, params))) as typeof tx.query,
          );
        return ctx.internal.append(tx, appends);
      });
      return { results, statements };
    };

    it('lands 100 streams at their own versions with one insert in a transaction (the lock, then the insert)', async () => {
      const streams = await seeded();
      const { results, statements } = await appendCounting(appendsTo(streams));
      // The projections lock, the insert, and one upsert for the 100 tally rows.
      expect(statements).toBe(3);
      expect(results.map((r) => [r.streamId, r.nextExpectedVersion])).toEqual(
        streams.map((s) => [s.id, s.version + 1]),
      );
      const stored = await storedVersions(streams.map((s) => s.id));
      expect(new Map(stored.map((r) => [r.stream_id, r.v]))).toEqual(
        new Map(streams.map((s) => [s.id, s.version + 1])),
      );
      expect(await shifts(streams)).toBe(N);
    });

    it('lands 100 streams through write in one statement, each at the version read', async () => {
      const streams = await seeded();
      const named = Object.fromEntries(streams.map((s) => [s.id, { streamId: s.id, evolve }]));
      let written: Awaited<ReturnType<typeof ctx.store.write>> | undefined;
      const oneStatement = !(await viaTransaction(async () => {
        written = await ctx.store.write({
          streams: () => named,
          decide: (states) =>
            streams.map((s) => ({
              streamId: s.id,
              events: [counted(s.id, `after ${states[s.id]?.count ?? 0}`)],
            })),
        });
      }));
      expect(oneStatement).toBe(true);
      expect(written!.appended.map((r) => r.events.map((e) => e.streamVersion))).toEqual(
        streams.map((s) => [s.version + 1]),
      );
      for (const s of streams.slice(0, 6))
        expect(await tally(s.id)).toEqual({ note: `after ${s.version}`, version: s.version + 1 });
    });

    it.each([
      ['taken by another writer', (v: number) => v - 1],
      ['not reached yet', (v: number) => v + 1],
    ])(
      'writes none of 100 streams in a transaction when one version is %s, and names that stream',
      async (_, wrong) => {
        const streams = await seeded();
        const stale = streams.find((s) => s.version === 2)!;
        const appends = appendsTo(streams).map((a) =>
          a.streamId === stale.id ? { ...a, expectedVersion: wrong(stale.version) } : a,
        );
        const before = await storedVersions(streams.map((s) => s.id));
        const appended = ctx.internal.transaction((tx) => ctx.internal.append(tx, appends));
        await expect(appended).rejects.toBeInstanceOf(ConcurrencyError);
        await expect(appended).rejects.toMatchObject({ streamId: stale.id, expected: String(wrong(stale.version)) });
        expect(await storedVersions(streams.map((s) => s.id))).toEqual(before);
        expect(await shifts(streams)).toBe(0);
      },
    );

    it('writes none of 100 streams through write when one moved after the read, and names that stream', async () => {
      const streams = await seeded();
      const stale = streams[50]!;
      movedAfterRead(() => ctx.store.handle(stale.id, evolve, () => [counted(stale.id, 'the other writer')]));
      const handled = ctx.store.write({
        streams: () => Object.fromEntries(streams.map((s) => [s.id, { streamId: s.id, evolve }])),
        decide: () => streams.map((s) => ({ streamId: s.id, events: [counted(s.id, 'shift')] })),
        retries: 0,
      });
      await expect(handled).rejects.toBeInstanceOf(ConcurrencyError);
      await expect(handled).rejects.toMatchObject({ streamId: stale.id });
      const stored = new Map((await storedVersions(streams.map((s) => s.id))).map((r) => [r.stream_id, r.v]));
      expect(stored).toEqual(
        new Map(
          streams
            .filter((s) => s.version > 0 || s === stale)
            .map((s) => [s.id, s === stale ? s.version + 1 : s.version]),
        ),
      );
      expect(await shifts(streams)).toBe(0);
    });

    it('treats a re-append of stored event ids as a no-op and appends the new ones, in one insert', async () => {
      const streams = await seeded();
      const keyed = streams.map((s) => ({ ...s, eventId: randomUUID() }));
      const appends = keyed.map((s): StreamAppend => ({
        streamId: s.id,
        expectedVersion: s.version === 0 ? 'no_stream' : s.version,
        events: [{ ...counted(s.id, 'keyed'), eventId: s.eventId }],
      }));
      const first = await appendCounting(appends.slice(0, 50));
      // The lock, the stored ids, the insert, the tally upsert.
      expect(first.statements).toBe(4);
      const again = await appendCounting(appends);
      // The lock, the stored ids, the retried streams' versions, the insert of the other 50, the tally upsert.
      expect(again.statements).toBe(5);
      expect(again.results.slice(0, 50).map((r) => [r.events.length, r.nextExpectedVersion])).toEqual(
        keyed.slice(0, 50).map((s) => [0, s.version + 1]),
      );
      expect(again.results.slice(50).map((r) => r.events.map((e) => [e.eventId, e.streamVersion]))).toEqual(
        keyed.slice(50).map((s) => [[s.eventId, s.version + 1]]),
      );
      const all = await storedVersions(keyed.map((s) => s.id));
      expect(new Map(all.map((r) => [r.stream_id, r.v]))).toEqual(new Map(keyed.map((s) => [s.id, s.version + 1])));
      const once = await appendCounting(appends);
      expect(once.results.every((r) => r.events.length === 0)).toBe(true);
    });

    it('appends twice to a stream named twice in one append, in the order given', async () => {
      const id = stream();
      const [first, second] = await ctx.internal.transaction((tx) =>
        ctx.internal.append(tx, [
          { streamId: id, expectedVersion: 'no_stream', events: [counted(id, 'one')] },
          { streamId: id, expectedVersion: 1, events: [counted(id, 'two')] },
        ]),
      );
      expect([first!.nextExpectedVersion, second!.nextExpectedVersion]).toEqual([1, 2]);
      expect((await ctx.store.readStream(id)).map((e) => (e.data as { note: string }).note)).toEqual(['one', 'two']);
    });
  });
});

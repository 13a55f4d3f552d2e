import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { contextFixture } from '../../../test/support/test-context.js';
import { ConcurrencyError } from './errors.js';
import { EventStore, storeInternals } from './event-store.js';
import { LOG_START, type LogCursor, type StoredEvent } from './event.types.js';
import { EventUpcasters } from './upcasters.js';

describe('EventStore on Postgres', () => {
  // `ctx.internal`: the transactional writes domain code does not get, to test them and to seed streams.
  const ctx = contextFixture({ also: (app) => ({ internal: storeInternals(app.get(EventStore)) }) });

  const event = (type: string, data: unknown = {}) => ({ type, data });
  const appendOne = (streamId: string, expectedVersion: number | 'any' | 'no_stream', ...types: string[]) =>
    ctx.internal.transaction((tx) =>
      ctx.internal.append(tx, [{ streamId, expectedVersion, events: types.map((t) => event(t)) }]),
    );

  it('appends to a new stream and reads it back in order with its metadata', async () => {
    const id = `thing-${randomUUID()}`;
    await ctx.internal.transaction((tx) =>
      ctx.internal.append(
        tx,
        [
          {
            streamId: id,
            expectedVersion: 'no_stream',
            events: [event('test.A', { n: 1 }), event('test.B', { n: 2 })],
          },
        ],
        { organisationId: 7, actorId: 3 },
      ),
    );
    const events = await ctx.store.readStream(id);
    expect(events.map((e) => [e.type, e.streamVersion, e.data])).toEqual([
      ['test.A', 1, { n: 1 }],
      ['test.B', 2, { n: 2 }],
    ]);
    expect(events[0]!.metadata).toEqual({ organisationId: 7, actorId: 3 });
  });

  it('refuses an append from a stale version with the typed error and stores nothing', async () => {
    const id = `thing-${randomUUID()}`;
    await appendOne(id, 'no_stream', 'test.A');
    await expect(appendOne(id, 0, 'test.B')).rejects.toBeInstanceOf(ConcurrencyError);
    await expect(appendOne(id, 2, 'test.B')).rejects.toBeInstanceOf(ConcurrencyError);
    await appendOne(id, 1, 'test.B');
    expect((await ctx.store.readStream(id)).map((e) => e.streamVersion)).toEqual([1, 2]);
  });

  it('lets exactly one of two concurrent appends at the same version win, leaving no gap or duplicate', async () => {
    const id = `thing-${randomUUID()}`;
    await appendOne(id, 'no_stream', 'test.A');
    for (let round = 0; round < 5; round++) {
      const version = round + 1;
      const results = await Promise.allSettled([appendOne(id, version, 'test.B'), appendOne(id, version, 'test.C')]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]!.reason).toBeInstanceOf(ConcurrencyError);
    }
    const versions = (await ctx.store.readStream(id)).map((e) => e.streamVersion);
    expect(versions).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('lets exactly one of two concurrent creators of a stream win', async () => {
    const id = `thing-${randomUUID()}`;
    const results = await Promise.allSettled([
      appendOne(id, 'no_stream', 'test.A'),
      appendOne(id, 'no_stream', 'test.A'),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await ctx.store.readStream(id)).map((e) => e.streamVersion)).toEqual([1]);
  });

  it('appends to several streams atomically: one conflict rolls back all of them', async () => {
    const a = `thing-${randomUUID()}`;
    const b = `thing-${randomUUID()}`;
    await appendOne(b, 'no_stream', 'test.A');
    await expect(
      ctx.internal.transaction((tx) =>
        ctx.internal.append(tx, [
          { streamId: a, expectedVersion: 'no_stream', events: [event('test.A')] },
          { streamId: b, expectedVersion: 0, events: [event('test.B')] },
        ]),
      ),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    expect(await ctx.store.readStream(a)).toHaveLength(0);
    expect(await ctx.store.readStream(b)).toHaveLength(1);
  });

  it('treats re-appending a stored event id as a no-op, even from the old expected version', async () => {
    const id = `thing-${randomUUID()}`;
    const eventId = randomUUID();
    const append = () =>
      ctx.internal.transaction((tx) =>
        ctx.internal.append(tx, [
          { streamId: id, expectedVersion: 'no_stream', events: [{ type: 'test.A', data: {}, eventId }] },
        ]),
      );
    const [first] = await append();
    const [again] = await append();
    expect(first!.events).toHaveLength(1);
    expect(again!.events).toHaveLength(0);
    expect(again!.nextExpectedVersion).toBe(1);
    expect(await ctx.store.readStream(id)).toHaveLength(1);
  });

  it('refuses to append outside a transaction', async () => {
    await expect(
      ctx.internal.append(ctx.ds.manager, [{ streamId: 'x', expectedVersion: 'any', events: [event('test.A')] }]),
    ).rejects.toThrow(/transaction/);
  });

  it('refuses updates and deletes of stored events', async () => {
    const id = `thing-${randomUUID()}`;
    await appendOne(id, 'no_stream', 'test.A');
    await expect(ctx.ds.query(`UPDATE events SET type = 'x' WHERE stream_id = $1`, [id])).rejects.toThrow(
      /append-only/,
    );
    await expect(ctx.ds.query(`DELETE FROM events WHERE stream_id = $1`, [id])).rejects.toThrow(/append-only/);
  });

  it('queues concurrent appends at any version of one stream: every one lands, versions 1 to n', async () => {
    const id = `thing-${randomUUID()}`;
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () => appendOne(id, 'any', 'test.A', 'test.B')),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect((await ctx.store.readStream(id)).map((e) => e.streamVersion)).toEqual(
      Array.from({ length: 24 }, (_, i) => i + 1),
    );
  });

  it('refuses an append after a version the stream has not reached, writing nothing', async () => {
    const id = `thing-${randomUUID()}`;
    await appendOne(id, 'no_stream', 'test.A');
    await expect(appendOne(id, 3, 'test.B')).rejects.toBeInstanceOf(ConcurrencyError);
    await expect(appendOne(id, 'no_stream', 'test.B')).rejects.toBeInstanceOf(ConcurrencyError);
    expect((await ctx.store.readStream(id)).map((e) => e.streamVersion)).toEqual([1]);
    expect((await appendOne(id, 1, 'test.B'))[0]!.nextExpectedVersion).toBe(2);
  });

  it('refuses a negative expected version as a lost race', async () => {
    const id = `thing-${randomUUID()}`;
    await appendOne(id, 'no_stream', 'test.A');
    await expect(appendOne(id, -1, 'test.B')).rejects.toBeInstanceOf(ConcurrencyError);
  });

  // Two transactions at once: embedded PGlite runs them one after the other (the second is then a no-op).
  (process.env.TEST_PG_ADMIN_URL ? it : it.skip)(
    'gives a 409, not a 500, to the loser of two concurrent retries of one event',
    async () => {
      const id = `thing-${randomUUID()}`;
      const eventId = randomUUID();
      const retry = () =>
        ctx.internal.transaction((tx) =>
          ctx.internal.append(tx, [
            { streamId: id, expectedVersion: 'no_stream', events: [{ type: 'test.A', data: {}, eventId }] },
          ]),
        );
      const results = await Promise.allSettled([retry(), retry(), retry()]);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ConcurrencyError);
      expect((await ctx.store.readStream(id)).map((e) => e.eventId)).toEqual([eventId]);
    },
  );

  it('upcasts old event shapes on read without rewriting them', async () => {
    ctx.app.get(EventUpcasters).register('test.Renamed', 1, (d) => ({ fullName: (d as { name: string }).name }));
    const id = `thing-${randomUUID()}`;
    await ctx.internal.transaction((tx) =>
      ctx.internal.append(tx, [
        { streamId: id, expectedVersion: 'any', events: [{ type: 'test.Renamed', data: { name: 'Ann' } }] },
      ]),
    );
    const [read] = await ctx.store.readStream(id);
    expect(read).toMatchObject({ schemaVersion: 2, data: { fullName: 'Ann' } });
    const [raw] = await ctx.ds.query(`SELECT schema_version, data FROM events WHERE stream_id = $1`, [id]);
    expect(raw).toEqual({ schema_version: 1, data: { name: 'Ann' } });
  });

  it('reads the whole log in transaction id order as numbers, not as text (999 before 1000), with and without types', async () => {
    const type = `test.Order${randomUUID().slice(0, 8)}`;
    const [{ below }] = await ctx.ds.query(
      `SELECT least(pg_snapshot_xmin(pg_current_snapshot()), (SELECT min(transaction_id) FROM events))::text AS below`,
    );
    // Two past transaction ids a digit apart (99 and 100, or 9999 and 10000), below every event and
    // every running transaction: readable, and first in the log.
    const high = String(10 ** Math.floor(Math.log10(Number(below ?? 1000) - 1)));
    const low = String(Number(high) - 1);
    for (const [tx, n] of [
      [high, 1],
      [low, 2],
    ] as const)
      await ctx.ds.query(
        `INSERT INTO events (transaction_id, event_id, stream_id, stream_version, type, data) VALUES ($1::xid8, $2, $3, 1, $4, $5)`,
        [tx, randomUUID(), `order-${randomUUID()}`, type, JSON.stringify({ n })],
      );
    const start: LogCursor = { transactionId: String(Number(low) - 1), position: 0 };
    for (const types of [[type], undefined]) {
      const [first] = (await ctx.store.readAll(start, 1, types)).filter((e) => e.type === type);
      expect([types, first?.data]).toEqual([types, { n: 2 }]);
    }
  });

  // Embedded PGlite runs one transaction at a time, so no transaction can commit around another
  // and there is no gap to test; these need a Postgres server (CI always has one).
  const concurrent = process.env.TEST_PG_ADMIN_URL ? describe : describe.skip;

  concurrent('gap-safe reading of the whole log', () => {
    async function drain(cursor: LogCursor, types: string[]): Promise<{ events: StoredEvent[]; cursor: LogCursor }> {
      const events: StoredEvent[] = [];
      for (;;) {
        const batch = await ctx.store.readAll(cursor, 50, types);
        if (batch.length === 0) return { events, cursor };
        events.push(...batch);
        const last = batch[batch.length - 1]!;
        cursor = { transactionId: last.transactionId, position: last.position };
      }
    }

    /**
     * Reads until `count` events came, or 10 s passed: the horizon is cluster-wide, so another test
     * file's open transaction (another database on the same server) can hold events back a while.
     */
    async function drainAtLeast(cursor: LogCursor, types: string[], count: number) {
      const events: StoredEvent[] = [];
      const deadline = Date.now() + 10_000;
      while (events.length < count && Date.now() < deadline) {
        const got = await drain(cursor, types);
        events.push(...got.events);
        cursor = got.cursor;
        if (events.length < count) await new Promise((r) => setTimeout(r, 50));
      }
      return { events, cursor };
    }

    it('never skips a transaction that took an earlier position but commits after a later one', async () => {
      const type = `test.Gap${randomUUID().slice(0, 8)}`;
      let cursor: LogCursor = LOG_START;
      let releaseSlow!: () => void;
      const slowMayCommit = new Promise<void>((r) => (releaseSlow = r));
      let slowAppended!: () => void;
      const slowHasAppended = new Promise<void>((r) => (slowAppended = r));

      // The slow transaction appends first (lower position), then waits before committing.
      const slow = ctx.internal.transaction(async (tx) => {
        await ctx.internal.append(tx, [
          { streamId: `slow-${randomUUID()}`, expectedVersion: 'any', events: [event(type, { who: 'slow' })] },
        ]);
        slowAppended();
        await slowMayCommit;
      });
      await slowHasAppended;
      await ctx.internal.transaction((tx) =>
        ctx.internal.append(tx, [
          { streamId: `fast-${randomUUID()}`, expectedVersion: 'any', events: [event(type, { who: 'fast' })] },
        ]),
      );

      // While the slow one is open the reader must not pass it, so it delivers nothing yet.
      const early = await drain(cursor, [type]);
      expect(early.events).toHaveLength(0);
      cursor = early.cursor;

      releaseSlow();
      await slow;
      const late = await drainAtLeast(cursor, [type], 2);
      expect(late.events.map((e) => (e.data as { who: string }).who).sort()).toEqual(['fast', 'slow']);
      const again = await drain(late.cursor, [type]);
      expect(again.events).toHaveLength(0);
    });

    it('delivers every event of many concurrent writers exactly once', async () => {
      const type = `test.Many${randomUUID().slice(0, 8)}`;
      let cursor: LogCursor = LOG_START;
      const seen: string[] = [];
      const writers = Array.from({ length: 40 }, (_, i) =>
        ctx.internal.transaction(async (tx) => {
          await ctx.internal.append(tx, [
            { streamId: `w-${i}-${randomUUID()}`, expectedVersion: 'any', events: [event(type, { i })] },
          ]);
          await new Promise((r) => setTimeout(r, (i * 7) % 23));
        }),
      );
      const reading = (async () => {
        for (let i = 0; i < 30; i++) {
          const got = await drain(cursor, [type]);
          seen.push(...got.events.map((e) => e.eventId));
          cursor = got.cursor;
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      await Promise.all(writers);
      await reading;
      const rest = await drainAtLeast(cursor, [type], 40 - seen.length);
      seen.push(...rest.events.map((e) => e.eventId));
      expect(seen).toHaveLength(40);
      expect(new Set(seen).size).toBe(40);
    });
  });
});

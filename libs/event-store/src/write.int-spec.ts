import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { DomainError } from '#app/platform';
import { contextFixture } from '../../../test/support/test-context.js';
import { ConcurrencyError } from './errors.js';
import { EventStore, storeInternals } from './event-store.js';
import type { Gates, NewEvent, StreamEvents, WriteQuery } from './event.types.js';
import { StreamReader } from './stream-reader.js';

/**
 * EventStore.write (docs/adr/0011-declarative-writes.md): a plan read before each attempt, gates
 * locked first and held to commit, facts read inside the write's transaction, named streams, a check
 * that the plan holds, a pure decision given the attempt's `now`, retries owned by the store. Both modes: PostgreSQL queues writers on the gates' rows; the embedded database runs one
 * transaction at a time, so there every locked write queues.
 */
describe('EventStore.write', () => {
  const ctx = contextFixture({ also: (app) => ({ internal: storeInternals(app.get(EventStore)) }) });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  const gate = () => `test.WriteGate-${randomUUID()}`;
  const stream = (prefix = 'test.Written-') => `${prefix}${randomUUID()}`;
  const noted = (n: number): NewEvent => ({ type: 'test.Noted', data: { n } });
  const onto = (streamId: string, ...events: NewEvent[]): StreamEvents[] => [{ streamId, events }];
  const tally = (state: number | null) => (state ?? 0) + 1;
  const version = async (id: string) =>
    Number((await ctx.ds.query(`SELECT version FROM stream_gates WHERE id = $1`, [id]))[0]?.version ?? 0);
  /** A fact: how many events the streams starting with `prefix` hold, read through the write's own `db`. */
  const eventsUnder = async (db: WriteQuery, prefix: string) =>
    (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE stream_id LIKE $1`, [`${prefix}%`]))[0]!
      .n;
  const latch = () => {
    let open!: () => void;
    const promise = new Promise<void>((resolve) => (open = resolve));
    return { promise, open };
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** Another writer's `work`, done once right after the write's next read of its streams: a lost race. */
  const movedAfterRead = (work: () => Promise<unknown>) => {
    const read = StreamReader.prototype.readFolded;
    jest.spyOn(StreamReader.prototype, 'readFolded').mockImplementationOnce(async function (this: StreamReader, ...a) {
      return read.apply(this, a).then(async (folded) => (await work(), folded));
    });
  };

  /**
   * A first writer that stays inside its write (after its facts) while a second one starts: whether
   * the second read its facts meanwhile (`early`), and how many events each one's facts saw.
   */
  async function twoWriters(first: Gates, second: Gates) {
    const prefix = stream('test.Turn-');
    const entered = latch();
    const release = latch();
    let early = false;
    const seen: Record<string, number> = {};
    const write = (name: string, gates: Gates, inside: () => Promise<void>) =>
      ctx.store.write({
        gates: () => gates,
        facts: async (db) => {
          const n = await eventsUnder(db, prefix);
          await inside();
          return n;
        },
        streams: () => ({ note: { streamId: `${prefix}-${name}`, expect: 'no_stream' } }),
        decide: (_, { facts: n }) => ((seen[name] = n), onto(`${prefix}-${name}`, noted(n))),
      });
    const a = write('first', first, async () => {
      entered.open();
      await release.promise;
    });
    await entered.promise;
    const b = write('second', second, async () => {
      early = true;
    });
    await sleep(100);
    const wasEarly = early;
    release.open();
    await Promise.all([a, b]);
    return { early: wasEarly, seen };
  }

  it('given two writers advancing one gate, when both write at once, then both commit, the second after the first (its facts see the first’s event)', async () => {
    const g = gate();
    const { early, seen } = await twoWriters({ advance: [g] }, { advance: [g] });
    expect(early).toBe(false);
    expect(seen).toEqual({ first: 0, second: 1 });
    expect(await version(g)).toBe(2);
  });

  it.each([
    ['an advancer', 'a holder', { advance: true }, { advance: false }],
    ['a holder', 'an advancer', { advance: false }, { advance: true }],
  ])(
    'given %s inside its write, when %s of the gate writes, then it waits for the first to commit',
    async (_a, _b, first, second) => {
      const g = gate();
      const gates = (x: { advance: boolean }): Gates => (x.advance ? { advance: [g] } : { hold: [g] });
      const { early, seen } = await twoWriters(gates(first), gates(second));
      expect(early).toBe(false);
      expect(seen).toEqual({ first: 0, second: 1 });
      expect(await version(g)).toBe(1);
    },
  );

  it('given a holder inside its write, when another holder of the gate writes, then it does not wait (PostgreSQL; the embedded database runs one transaction at a time)', async () => {
    const g = gate();
    // A gate's first holders queue once, behind the one that creates its row.
    await ctx.ds.query(`INSERT INTO stream_gates (id, version) VALUES ($1, 0)`, [g]);
    const { early } = await twoWriters({ hold: [g] }, { hold: [g] });
    expect(early).toBe(!ctx.env.embedded);
    expect(await version(g)).toBe(0);
  });

  it('given gates of both modes, then the write locks them in one order whatever their modes (PostgreSQL): a gate held before a later one advanced', async () => {
    // Advancing x and holding y against advancing y and holding x would deadlock if each writer
    // took its advances first. The embedded database runs one transaction at a time.
    if (ctx.env.embedded) return;
    const base = gate();
    const [held, advanced, id] = [`${base}-a`, `${base}-b`, stream()];
    await ctx.ds.query(`INSERT INTO stream_gates (id, version) VALUES ($1, 0), ($2, 0)`, [held, advanced]);
    const [blocker, probe] = [ctx.ds.createQueryRunner(), ctx.ds.createQueryRunner()];
    await blocker.startTransaction();
    await blocker.query(`SELECT FROM stream_gates WHERE id = $1 FOR UPDATE`, [advanced]);
    const write = ctx.store.write({
      gates: () => ({ advance: [advanced], hold: [held] }),
      streams: () => ({ note: { streamId: id, expect: 'no_stream' } }),
      decide: () => onto(id, noted(1)),
    });
    await sleep(100); // the write waits for `advanced`, holding `held` already
    await probe.startTransaction();
    await probe.query(`SET LOCAL lock_timeout = '100ms'`);
    const update = probe.query(`UPDATE stream_gates SET version = version + 1 WHERE id = $1`, [held]);
    await expect(update).rejects.toThrow('lock timeout');
    await probe.rollbackTransaction();
    await blocker.commitTransaction();
    await Promise.all([probe.release(), blocker.release()]);
    expect((await write).appended).toHaveLength(1);
    expect([await version(held), await version(advanced)]).toEqual([0, 1]);
  });

  it.each([
    ['with a gate (one transaction)', true],
    ['without gates or facts (one statement)', false],
  ])(
    'given named streams, when the decision appends to some of them %s, then it saw each state by its name and appended at the versions read',
    async (_, gated) => {
      const [left, right, fresh] = [stream(), stream(), stream()];
      await ctx.internal.commit({ streamId: left, expectedVersion: 'no_stream', events: [noted(1), noted(2)] });
      await ctx.internal.commit({ streamId: right, expectedVersion: 'no_stream', events: [noted(1)] });
      const g = gate();
      const written = await ctx.store.write({
        ...(gated && { gates: () => ({ advance: [g] }) }),
        streams: () => ({
          left: { streamId: left, evolve: tally },
          right: { streamId: right, evolve: tally },
          fresh: { streamId: fresh, expect: 'no_stream' as const },
        }),
        decide: (states) => [...onto(left, noted(states.left!)), ...onto(fresh, noted(0))],
        metadata: { correlationId: 'write-spec' },
      });
      expect(written.states).toEqual({ left: 2, right: 1, fresh: null });
      expect(written.appended.map((a) => [a.streamId, a.nextExpectedVersion])).toEqual([
        [left, 3],
        [fresh, 1],
      ]);
      expect(written.events.map((e) => e.streamId).sort()).toEqual([left, fresh].sort());
      expect(written.events[0]!.position).toBeLessThan(written.events[1]!.position);
      expect((await ctx.store.readStream(left)).map((e) => [e.streamVersion, e.data])).toEqual([
        [1, { n: 1 }],
        [2, { n: 2 }],
        [3, { n: 2 }],
      ]);
      expect((await ctx.store.readStream(fresh))[0]!.metadata).toEqual({ correlationId: 'write-spec' });
      expect(await version(g)).toBe(gated ? 1 : 0);
    },
  );

  it.each([
    ['with a gate', true],
    ['without gates', false],
  ])(
    'given a stream another writer appends to after the write read it (%s), then the write runs again and commits on the new state',
    async (_, gated) => {
      // With a gate the write reads inside its transaction; the embedded database lets no other
      // writer in before it commits, so nothing can move there.
      if (gated && ctx.env.embedded) return;
      const id = stream();
      await ctx.internal.commit({ streamId: id, expectedVersion: 'no_stream', events: [noted(1)] });
      movedAfterRead(() => ctx.internal.commit({ streamId: id, expectedVersion: 'any', events: [noted(2)] }));
      const decided: number[] = [];
      let plans = 0;
      const written = await ctx.store.write({
        plan: async () => ++plans,
        ...(gated && { gates: () => ({ advance: [gate()] }) }),
        streams: () => ({ tally: { streamId: id, evolve: tally } }),
        decide: ({ tally }) => (decided.push(tally!), onto(id, noted(3))),
      });
      expect(decided).toEqual([1, 2]);
      // The whole write ran again, from its plan on.
      expect(plans).toBe(2);
      expect(written.plan).toBe(2);
      expect(written.appended[0]!.nextExpectedVersion).toBe(3);
      expect((await ctx.store.readStream(id)).map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    },
  );

  it('given two writers that deadlock inside their writes, then the one Postgres aborts runs again and both commit (PostgreSQL)', async () => {
    // The embedded database runs one transaction at a time: two writes cannot deadlock there.
    if (ctx.env.embedded) return;
    const rows = [randomUUID(), randomUUID()];
    await ctx.ds.query(`CREATE TABLE IF NOT EXISTS write_spec_rows (id uuid PRIMARY KEY)`);
    await ctx.ds.query(`INSERT INTO write_spec_rows SELECT unnest($1::uuid[])`, [rows]);
    const lock = (db: WriteQuery, id: string) => db.query(`SELECT FROM write_spec_rows WHERE id = $1 FOR UPDATE`, [id]);
    const inside = [latch(), latch()];
    let facts = 0;
    const write = (mine: number) => {
      const id = stream();
      return ctx.store.write({
        gates: () => ({ advance: [gate()] }),
        // Each locks its own row, then, once the other holds its own, the other's.
        facts: async (db) => {
          facts++;
          await lock(db, rows[mine]!);
          inside[mine]!.open();
          await inside[1 - mine]!.promise;
          await lock(db, rows[1 - mine]!);
        },
        streams: () => ({ note: { streamId: id, expect: 'no_stream' } }),
        decide: () => onto(id, noted(mine)),
      });
    };
    const written = await Promise.all([write(0), write(1)]);
    expect(written.map((w) => w.events.length)).toEqual([1, 1]);
    expect(facts).toBe(3);
  });

  it('given a plan that no longer holds every time, when it has been planned `retries` more times, then the write answers ConcurrencyError (409) and nothing moved', async () => {
    const [g, id] = [gate(), stream()];
    let plans = 0;
    let decisions = 0;
    const write = ctx.store.write({
      plan: async () => ++plans,
      gates: () => ({ advance: [g] }),
      streams: () => ({ note: { streamId: id, expect: 'no_stream' } }),
      holds: () => false,
      decide: () => (decisions++, onto(id, noted(1))),
      retries: 2,
    });
    await expect(write).rejects.toBeInstanceOf(ConcurrencyError);
    await expect(write).rejects.toMatchObject({ code: 'conflict' });
    expect([plans, decisions]).toEqual([3, 0]);
    expect(await version(g)).toBe(0);
    expect(await ctx.store.readStream(id)).toEqual([]);
  });

  it.each([
    ['with a gate (one transaction)', true],
    ['without gates or facts (one statement)', false],
  ])(
    'given a plan that does not hold for the states read once, then the store plans again and decides on the new plan %s',
    async (_, gated) => {
      const id = stream();
      const checked: [number, number | null][] = [];
      const written = await ctx.store.write({
        plan: async () => checked.length + 1,
        ...(gated && { gates: () => ({ advance: [gate()] }) }),
        streams: () => ({ note: { streamId: id, evolve: tally } }),
        holds: (states, { plan }) => (checked.push([plan, states.note]), plan > 1),
        decide: (_, { plan }) => onto(id, noted(plan)),
      });
      expect(checked).toEqual([
        [1, null],
        [2, null],
      ]);
      expect(written.plan).toBe(2);
      expect((await ctx.store.readStream(id)).map((e) => e.data)).toEqual([{ n: 2 }]);
    },
  );

  it('given a plan that reads streams through `planning.read`, then it sees their folded states and chooses the streams the decision appends to', async () => {
    const [index, counter, target] = [stream(), stream(), stream()];
    const listed: NewEvent = { type: 'test.Listed', data: { target } };
    await ctx.internal.commit({ streamId: index, expectedVersion: 'no_stream', events: [noted(1), listed] });
    await ctx.internal.commit({ streamId: counter, expectedVersion: 'no_stream', events: [noted(1), noted(2)] });
    const lastListed = (state: string | null, e: { type: string; data: { target?: string } }) =>
      e.type === 'test.Listed' ? e.data.target! : state;
    const written = await ctx.store.write({
      plan: async ({ read }) => {
        const states = await read({
          index: { streamId: index, evolve: lastListed },
          counter: { streamId: counter, evolve: tally },
          nothing: { streamId: stream(), evolve: tally },
        });
        return { target: states.index!, count: states.counter!, nothing: states.nothing };
      },
      streams: (plan) => ({ target: { streamId: plan.target, expect: 'no_stream' as const } }),
      decide: (_, { plan }) => onto(plan.target, noted(plan.count)),
    });
    expect(written.plan).toEqual({ target, count: 2, nothing: null });
    expect((await ctx.store.readStream(target)).map((e) => e.data)).toEqual([{ n: 2 }]);
  });

  it('given an attempt, then `decide` is given its `now`, the same `now` as its `plan` and as the write answers, and a lost race gives the next attempt its own', async () => {
    const id = stream();
    await ctx.internal.commit({ streamId: id, expectedVersion: 'no_stream', events: [noted(1)] });
    movedAfterRead(async () => {
      await sleep(5);
      await ctx.internal.commit({ streamId: id, expectedVersion: 'any', events: [noted(2)] });
    });
    const planned: number[] = [];
    const decided: [number, number][] = [];
    const before = Date.now();
    const written = await ctx.store.write({
      plan: async ({ now }) => (planned.push(now), now),
      streams: () => ({ tally: { streamId: id, evolve: tally } }),
      decide: (_, { plan, now }) => (decided.push([plan, now]), onto(id, noted(now))),
    });
    expect(planned).toHaveLength(2);
    expect(decided).toEqual(planned.map((now) => [now, now]));
    expect(planned[1]!).toBeGreaterThan(planned[0]!);
    expect(planned[0]!).toBeGreaterThanOrEqual(before);
    expect(planned[1]!).toBeLessThanOrEqual(Date.now());
    expect(written.now).toBe(planned[1]);
    expect((await ctx.store.readStream(id)).at(-1)!.data).toEqual({ n: planned[1] });
  });

  it('given a decision that appends nothing, then no gate moves (nor is created) and nothing is written', async () => {
    const [moved, fresh, held, id] = [gate(), gate(), gate(), stream()];
    const before = stream();
    await ctx.store.write({
      gates: () => ({ advance: [moved] }),
      streams: () => ({ note: { streamId: before, expect: 'no_stream' } }),
      decide: () => onto(before, noted(0)),
    });
    const written = await ctx.store.write({
      plan: async () => 'plan',
      gates: () => ({ advance: [moved, fresh], hold: [held] }),
      facts: async () => 'facts',
      streams: () => ({ note: { streamId: id, expect: 'no_stream' } }),
      decide: () => onto(id),
    });
    expect(written).toMatchObject({ plan: 'plan', facts: 'facts', states: { note: null }, appended: [], events: [] });
    const rows = await ctx.ds.query(`SELECT id, version::int FROM stream_gates WHERE id = ANY($1::text[])`, [
      [moved, fresh, held],
    ]);
    expect(rows).toEqual([{ id: moved, version: 1 }]);
    expect(await ctx.store.readStream(id)).toEqual([]);
  });

  it.each([
    ['with a gate (one transaction)', true],
    ['without gates or facts (one statement)', false],
  ])(
    'given a decision that appends to a stream it did not name, then the write throws and writes nothing %s',
    async (_, gated) => {
      const [g, named, other] = [gate(), stream(), stream()];
      const write = ctx.store.write({
        ...(gated && { gates: () => ({ advance: [g] }) }),
        streams: () => ({ named: { streamId: named, expect: 'no_stream' as const } }),
        decide: () => [...onto(named, noted(1)), ...onto(other, noted(2))],
      });
      await expect(write).rejects.toThrow(`appends to ${other}, which it did not name`);
      expect(await version(g)).toBe(0);
      expect(await ctx.store.readStream(named)).toEqual([]);
      expect(await ctx.store.readStream(other)).toEqual([]);
    },
  );

  it('given a decision that refuses with a domain error, then the write rejects with it at once and writes nothing', async () => {
    const [g, id] = [gate(), stream()];
    let decisions = 0;
    const write = ctx.store.write({
      gates: () => ({ advance: [g] }),
      facts: async (db) => eventsUnder(db, id),
      streams: () => ({ note: { streamId: id, expect: 'no_stream' } }),
      decide: () => {
        decisions++;
        throw new DomainError('validation', 'not allowed');
      },
    });
    await expect(write).rejects.toBeInstanceOf(DomainError);
    expect(decisions).toBe(1);
    expect(await version(g)).toBe(0);
    expect(await ctx.store.readStream(id)).toEqual([]);
  });
});

import type { Metrics, PreparedStatements } from '#app/platform';
import type { Appender } from './appender.js';
import { ConcurrencyError } from './errors.js';
import type { EventRow } from './event-rows.js';
import type {
  AppendResult,
  Gates,
  StatesByName,
  StoredEvent,
  StreamAppend,
  StreamEvents,
  StreamRead,
  StreamReads,
  Write,
  WriteQuery,
  Written,
} from './event.types.js';
import { lockGates, sortedGates } from './gate-locks.js';
import type { KeyQuery } from './personal-data/personal-data-keys.js';
import type { Folded, StreamReader } from './stream-reader.js';

/** Lost races a `write` runs again after, by default: losing one takes a stream edited meanwhile. */
export const WRITE_RETRIES = 5;

/**
 * Runs a `Write` (docs/adr/0011-declarative-writes.md), its phases in the order event.types.ts gives
 * them, every attempt from its plan on. With gates or facts the attempt is one transaction that
 * takes the gates first; without, the streams are read and the append is one statement.
 */
export class WriteRunner {
  constructor(
    private readonly reader: StreamReader,
    private readonly appender: Appender,
    private readonly prepared: PreparedStatements,
    private readonly metrics?: Metrics,
  ) {}

  async run<P, F, R extends StreamReads>(spec: Write<P, F, R>): Promise<Written<P, F, R>> {
    const written = await retrying(spec.retries ?? WRITE_RETRIES, async () => {
      const now = Date.now();
      const plan = spec.plan
        ? await spec.plan({ now, read: (streams) => this.readNamed(streams, this.reader.query).then((r) => r.states) })
        : (undefined as P);
      const gates = spec.gates?.(plan);
      const locked = !!spec.facts || (gates?.advance?.length ?? 0) + (gates?.hold?.length ?? 0) > 0;
      return locked ? this.locked(spec, plan, gates, now) : this.unlocked(spec, plan, now);
    });
    for (const r of written.appended) this.metrics?.eventsAppended(r.events);
    return written;
  }

  private async unlocked<P, F, R extends StreamReads>(spec: Write<P, F, R>, plan: P, now: number) {
    const given = { plan, facts: undefined as F, now };
    const streams = spec.streams(plan, given.facts);
    const read = await this.readNamed(streams, this.reader.query);
    const appends = this.decided(spec, streams, read, given);
    const appended = appends.length > 0 ? await this.appender.writeOnce(appends, spec.metadata ?? {}) : [];
    return { ...given, states: read.states, appended, events: eventsOf(appended) };
  }

  private async locked<P, F, R extends StreamReads>(
    spec: Write<P, F, R>,
    plan: P,
    gates: Gates | undefined,
    now: number,
  ): Promise<Written<P, F, R>> {
    let decided: Written<P, F, R> | undefined;
    try {
      await this.appender.transaction(async (tx) => {
        const query = <T>(text: string, params?: readonly unknown[]) =>
          this.prepared.queryIn<T>(tx, text, params ?? []);
        await lockGates(query, sortedGates(gates));
        const db: WriteQuery = { query };
        const facts = spec.facts ? await spec.facts(db, plan) : (undefined as F);
        const given = { plan, facts, now };
        const streams = spec.streams(plan, facts);
        const read = await this.readNamed(streams, query<EventRow>);
        const appends = this.decided(spec, streams, read, given);
        decided = { ...given, states: read.states, appended: [], events: [] };
        // Nothing to append: roll the gates back too, so a write that did nothing leaves no trace.
        if (appends.length === 0) throw NOTHING_TO_WRITE;
        const appended = await this.appender.writeOnce(appends, spec.metadata ?? {}, tx);
        decided = { ...decided, appended, events: eventsOf(appended) };
      });
    } catch (error) {
      // A deadlock anywhere in the write (its gates, the facts, the projections' rows) lost a race.
      if (error !== NOTHING_TO_WRITE) deadlockAsConflict(error);
    }
    return decided!;
  }

  /** The plan checked (`holds`), then the decision's appends. */
  private decided<P, F, R extends StreamReads>(
    spec: Write<P, F, R>,
    streams: R,
    read: { states: StatesByName<R>; folded: Map<string, Folded> },
    given: { plan: P; facts: F; now: number },
  ): StreamAppend[] {
    if (spec.holds && !spec.holds(read.states, given)) throw new ConcurrencyError('plan', 'the plan it was listed for');
    return appendsOf(Object.values(streams), read.folded, spec.decide(read.states, given));
  }

  /** The named streams read and folded (StreamReader.readFolded), and their states under their names. */
  private async readNamed<R extends StreamReads>(
    streams: R,
    query: (text: string, params: unknown[]) => Promise<EventRow[]>,
  ): Promise<{ states: StatesByName<R>; folded: Map<string, Folded> }> {
    const folded = await this.reader.readFolded(Object.values(streams), query as KeyQuery & typeof query);
    const states = Object.fromEntries(
      Object.entries(streams).map(([name, s]) => [name, folded.get(s.streamId)!.state]),
    );
    return { states: states as StatesByName<R>, folded };
  }
}

/** `work`, run again after a lost race (a ConcurrencyError) up to `retries` more times. */
export async function retrying<T>(retries: number, work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= retries) throw error;
      // A little jitter, so the losers of one race do not meet again on the next round.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 3 * (attempt + 1)));
    }
  }
}

/** Thrown inside a locked write's transaction to roll it back when the decision appends nothing. */
const NOTHING_TO_WRITE = Symbol('nothing to write');

/** The appends of a decision: only to the streams it was given, each once, at the version read (or its `expect`). */
function appendsOf(
  streams: readonly StreamRead<unknown, never>[],
  folded: ReadonlyMap<string, Folded>,
  decided: readonly StreamEvents[],
): StreamAppend[] {
  const given = new Map(streams.map((s) => [s.streamId, s]));
  const seen = new Set<string>();
  const appends: StreamAppend[] = [];
  for (const d of decided) {
    const stream = given.get(d.streamId);
    if (!stream)
      throw new Error(
        `EventStore: the decision appends to ${d.streamId}, which it did not name (not one of its streams)`,
      );
    if (seen.has(d.streamId)) throw new Error(`EventStore: the decision names ${d.streamId} twice`);
    seen.add(d.streamId);
    if (d.events.length > 0)
      appends.push({
        streamId: d.streamId,
        expectedVersion: stream.expect ?? folded.get(d.streamId)!.version,
        events: d.events,
      });
  }
  return appends;
}

const eventsOf = (appended: readonly AppendResult[]): StoredEvent[] =>
  appended.flatMap((a) => a.events).sort((a, b) => a.position - b.position);

/** A deadlock (writers locking rows in crossed orders): Postgres aborts one of them, which lost a race. */
function deadlockAsConflict(error: unknown): never {
  const code = (
    (error as { driverError?: { code?: string } } | null)?.driverError ?? (error as { code?: string } | null)
  )?.code;
  throw code === '40P01' ? new ConcurrencyError('write', 'gate') : error;
}

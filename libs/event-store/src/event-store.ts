import { Injectable, Optional } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Metrics, PreparedStatements } from '#app/platform';
import { Appender } from './appender.js';
import type {
  AppendResult,
  EventMetadata,
  Evolve,
  Handled,
  HandleOptions,
  LogCursor,
  NewEvent,
  StoredEvent,
  StreamAppend,
  StreamReads,
  Write,
  Written,
} from './event.types.js';
import { InlineProjections } from './inline-projections.js';
import { PersonalDataKeys } from './personal-data/personal-data-keys.js';
import { StreamReader } from './stream-reader.js';
import { EventUpcasters } from './upcasters.js';
import { retrying, WriteRunner } from './write-runner.js';

export { WRITE_RETRIES } from './write-runner.js';

/**
 * What the store keeps from domain code (docs/adr/0005-one-write-path.md): a transaction of its own,
 * `append` inside it, and one stream's append at a version the caller names (`commit`). The store
 * writes through them itself; libs/event-store's own tests and the white-box benchmarks
 * (bench/internals.ts) reach them through `storeInternals`, which index.ts does not export.
 */
export interface StoreInternals {
  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T>;
  append(tx: EntityManager, appends: readonly StreamAppend[], metadata?: EventMetadata): Promise<AppendResult[]>;
  /** One stream in a transaction of its own, as `handle` writes it, at `append.expectedVersion`. */
  commit(append: StreamAppend, metadata?: EventMetadata): Promise<AppendResult>;
}

let internalsOf: (store: EventStore) => StoreInternals;

/** See `StoreInternals`: not for domain code, which writes through `handle` / `write`. */
export const storeInternals = (store: EventStore): StoreInternals => internalsOf(store);

/**
 * The event log. Domain code writes through two doors (docs/adr/0011-declarative-writes.md):
 * `handle` for a decision over one stream, `write` for rules across streams or over read tables.
 * It reads with `readStream`; reactors follow the log with `readAll`. How the store writes
 * (appender.ts: one statement, or a transaction) is private to it and never limits what a
 * projection may do.
 */
@Injectable()
export class EventStore {
  private readonly reader: StreamReader;
  private readonly appender: Appender;
  private readonly runner: WriteRunner;

  static {
    internalsOf = (store) => ({
      transaction: (work) => store.appender.transaction(work),
      append: (tx, appends, metadata) => store.appender.append(tx, appends, metadata),
      commit: async (append, metadata = {}) => (await store.appender.appendNow([append], metadata))[0]!,
    });
  }

  constructor(
    dataSource: DataSource,
    upcasters: EventUpcasters,
    projections: InlineProjections,
    prepared: PreparedStatements,
    // Absent only where a benchmark builds the store by hand.
    @Optional() metrics?: Metrics,
    // Absent only where a benchmark builds the store by hand: nothing is sealed then.
    @Optional() personal?: PersonalDataKeys,
  ) {
    this.reader = new StreamReader(dataSource, upcasters, prepared, personal);
    this.appender = new Appender(dataSource, upcasters, projections, prepared, this.reader, metrics, personal);
    this.runner = new WriteRunner(this.reader, this.appender, prepared, metrics);
  }

  /**
   * A decision over one stream: reads and folds it with `evolve`, asks `decide` for the events
   * (given the attempt's instant: `decide` keeps no clock) and appends them at the version read,
   * projections included, in one statement. A writer that appended in between wins: this append
   * fails with ConcurrencyError (409), or runs again up to `options.retries` times. `decide` may
   * throw a domain refusal: nothing is appended. No events: nothing is written. `options.expect`
   * skips the read (`Unread`).
   */
  async handle<S, E = StoredEvent>(
    streamId: string,
    evolve: Evolve<S, E>,
    decide: (state: S | null, now: number) => readonly NewEvent[] | Promise<readonly NewEvent[]>,
    options: HandleOptions = {},
  ): Promise<Handled<S>> {
    return retrying(options.retries ?? 0, async () => {
      const { state, version } = options.expect
        ? { state: null, version: 0 }
        : await this.reader.foldOne(streamId, evolve);
      const events = await decide(state, Date.now());
      if (events.length === 0) return { streamId, nextExpectedVersion: version, events: [], state };
      const [result] = await this.appender.appendNow(
        [{ streamId, expectedVersion: options.expect ?? version, events }],
        options.metadata ?? {},
      );
      return { ...result!, state };
    });
  }

  /** A write described as data (`Write`, docs/adr/0011-declarative-writes.md): see write-runner.ts. */
  write<P = undefined, F = undefined, R extends StreamReads = StreamReads>(
    write: Write<P, F, R>,
  ): Promise<Written<P, F, R>> {
    return this.runner.run(write);
  }

  readStream(streamId: string, afterVersion = 0, tx?: EntityManager): Promise<StoredEvent[]> {
    return this.reader.readStream(streamId, afterVersion, tx);
  }

  /** The events one transaction appended (StreamReader.readTransaction). */
  readTransaction(
    transactionId: string,
    options: { types?: readonly string[]; limit?: number } = {},
  ): Promise<StoredEvent[]> {
    return this.reader.readTransaction(transactionId, options);
  }

  /** The whole log after `cursor`, gap-safely (StreamReader.readAll). */
  readAll(cursor: LogCursor, limit: number, types?: readonly string[], tx?: EntityManager): Promise<StoredEvent[]> {
    return this.reader.readAll(cursor, limit, types, tx);
  }
}

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test } from '@nestjs/testing';
import { EventStore, EventUpcasters, type StreamAppend } from '#app/event-store';
import { loadConfig, PreparedStatements } from '#app/platform';
import type pg from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import { coreImports } from '../apps/common/core.js';
import { connect, createScratch, dropScratch, openDataSource, secondsSince } from './db.js';
import { EVENT_TYPES, eventData, eventMetadata } from './fixtures.js';
import { EVENT_COLUMNS, type EventRow, storeInternals, toStoredEvent } from './internals.js';

export interface AppendOptions {
  /** Single-event transactions per variant. */
  readonly singles: number;
  /** Transactions of `batchSize` events per variant. */
  readonly batches: number;
  readonly batchSize: number;
  /** Appenders of the concurrent variants. */
  readonly concurrency: number;
  readonly log?: (line: string) => void;
}

export interface AppendFigure {
  readonly name: string;
  readonly transactions: number;
  readonly events: number;
  /** EventStore.append inside EventStore.transaction. */
  readonly storeSeconds: number;
  /** The same rows through raw `pg` into a plain copy of the events table, same transaction shape. */
  readonly rawSeconds: number;
}

/** One row as both sides write it. */
interface Row {
  readonly streamId: string;
  readonly version: number;
  readonly type: string;
  readonly data: Record<string, unknown>;
}

/** One transaction's worth of rows, all in one stream. */
type Tx = readonly Row[];

const RAW_TABLE = 'events_raw';

/**
 * No inline projections: the benchmark measures the log append. (EventStore's InlineProjections
 * with an empty registry does exactly this: nothing; it is not exported from the library's index.)
 */
const noInlineProjections = {
  apply: async () => undefined,
  committed: () => undefined,
  plan: async () => ({ statements: [], ops: [] }),
  announce: () => undefined,
} as unknown as ConstructorParameters<typeof EventStore>[2];
const STREAMS_PER_APPENDER = 50;

/**
 * Single appends: appender `w` cycles over its own 50 streams, so most appends extend an existing
 * stream at expectedVersion 'any' (its lock, then the latest version read in the insert), as a
 * command on an aggregate.
 */
function singleTxs(tag: string, appenders: number, total: number): Tx[][] {
  const per = Math.ceil(total / appenders);
  return Array.from({ length: appenders }, (_, w) =>
    Array.from({ length: per }, (_, j) => {
      const i = w * per + j;
      return [
        {
          streamId: `${tag}-w${w}-s${j % STREAMS_PER_APPENDER}`,
          version: Math.floor(j / STREAMS_PER_APPENDER) + 1,
          type: EVENT_TYPES[i % EVENT_TYPES.length]!,
          data: eventData(i),
        },
      ];
    }),
  );
}

/** Batches: each transaction opens a fresh stream with `size` events. */
function batchTxs(tag: string, appenders: number, total: number, size: number): Tx[][] {
  const per = Math.ceil(total / appenders);
  return Array.from({ length: appenders }, (_, w) =>
    Array.from({ length: per }, (_, j) =>
      Array.from({ length: size }, (_, k) => {
        const i = (w * per + j) * size + k;
        return {
          streamId: `${tag}-w${w}-b${j}`,
          version: k + 1,
          type: EVENT_TYPES[k % EVENT_TYPES.length]!,
          data: eventData(i),
        };
      }),
    ),
  );
}

async function storeWrite(store: EventStore, tx: Tx): Promise<void> {
  const fresh = tx.length > 1;
  const internal = storeInternals(store);
  await internal.transaction((em) =>
    internal.append(
      em,
      [
        {
          streamId: tx[0]!.streamId,

          expectedVersion: fresh ? 'no_stream' : 'any',
          events: tx.map((r) => ({ type: r.type, data: r.data })),
        },
      ],
      eventMetadata(randomUUID()),
    ),
  );
}

/**
 * The hand-written baseline: BEGIN, one INSERT of the transaction's rows (a VALUES row for a
 * single event, the same unnest() form EventStore uses for a batch), COMMIT.
 */
async function rawWrite(client: pg.Client, tx: Tx): Promise<void> {
  const metadata = JSON.stringify(eventMetadata(randomUUID()));
  await client.query('BEGIN');
  if (tx.length === 1) {
    const r = tx[0]!;
    await client.query(
      `INSERT INTO ${RAW_TABLE} (event_id, stream_id, stream_version, type, schema_version, data, metadata)
       VALUES ($1, $2, $3, $4, 1, $5::jsonb, $6::jsonb)`,
      [randomUUID(), r.streamId, r.version, r.type, JSON.stringify(r.data), metadata],
    );
  } else {
    await client.query(
      `INSERT INTO ${RAW_TABLE} (event_id, stream_id, stream_version, type, schema_version, data, metadata)
       SELECT e.id, $1, e.version, e.type, 1, e.data, $5::jsonb
         FROM unnest($2::uuid[], $3::int[], $4::text[], $6::jsonb[]) AS e(id, version, type, data)`,
      [
        tx[0]!.streamId,
        tx.map(() => randomUUID()),
        tx.map((r) => r.version),
        tx.map((r) => r.type),
        metadata,
        tx.map((r) => JSON.stringify(r.data)),
      ],
    );
  }
  await client.query('COMMIT');
}

/** Every appender writes its transactions in order; all appenders run at once. Returns seconds. */
async function run<C>(workers: readonly C[], work: Tx[][], write: (c: C, tx: Tx) => Promise<void>): Promise<number> {
  const started = performance.now();
  await Promise.all(
    work.map(async (txs, w) => {
      for (const tx of txs) await write(workers[w]!, tx);
    }),
  );
  return secondsSince(started);
}

export async function benchAppend(options: AppendOptions): Promise<AppendFigure[]> {
  const log = options.log ?? (() => undefined);
  // A fixed name: a run that was killed leaves it behind, the next run drops it first.
  const database = 'uvol_bench_append';
  const url = await createScratch(database);
  let dataSource: DataSource | undefined;
  const clients: pg.Client[] = [];
  try {
    dataSource = await openDataSource(url, options.concurrency + 2);
    const store = new EventStore(
      dataSource,
      new EventUpcasters(),
      noInlineProjections,
      new PreparedStatements(dataSource, { embedded: false }),
    );
    // The baseline table: the events table's columns, defaults, constraints and indexes, without the trigger.
    await dataSource.query(`CREATE TABLE ${RAW_TABLE} (LIKE events INCLUDING ALL)`);
    for (let i = 0; i < options.concurrency; i++) clients.push(await connect(url));
    const stores = Array.from({ length: options.concurrency }, () => store);

    // Warm-up: connections, prepared plans, the catalog caches of both sides.
    const warm = singleTxs('warm', 1, 200).concat(batchTxs('warmb', 1, 10, options.batchSize));
    await run([store, store], warm, storeWrite);
    await run([clients[0]!, clients[0]!], warm, rawWrite);

    const variants: { name: string; work: (tag: string) => Tx[][]; appenders: number }[] = [
      { name: 'single-event tx', appenders: 1, work: (t) => singleTxs(t, 1, options.singles) },
      {
        name: `${options.batchSize}-event tx`,
        appenders: 1,
        work: (t) => batchTxs(t, 1, options.batches, options.batchSize),
      },
      {
        name: `single-event tx, ${options.concurrency} appenders`,
        appenders: options.concurrency,
        work: (t) => singleTxs(t, options.concurrency, options.singles),
      },
      {
        name: `${options.batchSize}-event tx, ${options.concurrency} appenders`,
        appenders: options.concurrency,
        work: (t) => batchTxs(t, options.concurrency, options.batches, options.batchSize),
      },
    ];
    const figures: AppendFigure[] = [];
    for (const [n, v] of variants.entries()) {
      const work = v.work(`v${n}`);
      const transactions = work.reduce((sum, txs) => sum + txs.length, 0);
      const events = work.reduce((sum, txs) => sum + txs.reduce((s, tx) => s + tx.length, 0), 0);
      await dataSource.query('CHECKPOINT');
      const storeSeconds = await run(stores, work, storeWrite);
      await dataSource.query('CHECKPOINT');
      const rawSeconds = await run(clients, work, rawWrite);
      figures.push({ name: v.name, transactions, events, storeSeconds, rawSeconds });
      log(
        `append ${v.name}: store ${(events / storeSeconds).toFixed(0)} ev/s, raw ${(events / rawSeconds).toFixed(0)} ev/s`,
      );
    }
    return figures;
  } finally {
    for (const c of clients) await c.end().catch(() => undefined);
    await dataSource?.destroy().catch(() => undefined);
    await dropScratch(database);
  }
}

// ---------------------------------------------------------------------------------------------
// Write paths (BENCH_ONLY=paths): the same appends through each public path, side by side.

export interface PathOptions {
  /** Single-event transactions per variant and round. */
  readonly singles: number;
  /** Transactions of `streams` streams × 1 event per variant and round. */
  readonly multis: number;
  /** Streams per multi-stream transaction. */
  readonly streams: number;
  /** Appenders of the concurrent single-event groups. */
  readonly concurrency: number;
  /** Rounds; within a round every variant of a group runs once, in turn, starting one later each round. The figure is the median. */
  readonly rounds: number;
  /** Run on the embedded database (PGlite, one session) through the application's modules instead. */
  readonly embedded?: boolean;
  readonly log?: (line: string) => void;
}

export interface PathFigure {
  readonly group: string;
  readonly name: string;
  readonly transactions: number;
  readonly events: number;
  /** Seconds of each round, in order. */
  readonly seconds: readonly number[];
}

/** One stream a transaction appends to, at the version it holds (when it is known). */
interface Target {
  readonly streamId: string;
  readonly version: number;
}
type PathWrite = (targets: readonly Target[], i: number) => Promise<unknown>;

/** Counts events: what a handler folds, cheaply. */
const countEvents = (state: number | null) => (state ?? 0) + 1;
const pathEvent = (i: number) => ({ type: EVENT_TYPES[i % EVENT_TYPES.length]!, data: eventData(i) });

/**
 * The per-stream append of `EventStore.append` as of 7178082 (before the one multi-stream insert),
 * statement for statement: the locks, then one INSERT per stream. The "before" of the multi-stream
 * figures; it skips only the (empty) projections and the idempotency read (no event ids here).
 */
async function legacyAppend(
  tx: EntityManager,
  upcasters: EventUpcasters,
  appends: readonly StreamAppend[],
  metadata: object,
): Promise<void> {
  const anyStreams = [...new Set(appends.filter((a) => a.expectedVersion === 'any').map((a) => a.streamId))].sort();
  await tx.query(
    `SELECT pg_advisory_xact_lock_shared(hashtextextended('event-store:projections', 0))` +
      anyStreams
        .map((_, i) => `, pg_advisory_xact_lock(hashtextextended('event-store:stream:' || $${i + 1}, 0))`)
        .join(''),
    anyStreams,
  );
  const recordedAt = new Date();
  for (const append of [...appends].sort((a, b) => a.streamId.localeCompare(b.streamId))) {
    const { expectedVersion, events } = append;
    const after = typeof expectedVersion === 'number' && expectedVersion !== 0 ? expectedVersion : null;
    const version =
      expectedVersion === 'any'
        ? '(SELECT coalesce(max(stream_version), 0) FROM events WHERE stream_id = $1)'
        : expectedVersion === 'no_stream' || expectedVersion === 0
          ? '0'
          : '$8::int';
    const rows: EventRow[] = await tx.query(
      `INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
       SELECT e.id, $1, b.version + e.n::int, e.type, e.schema_version, e.data, $6::jsonb, $7::timestamptz
         FROM (SELECT ${version} AS version) b,
              unnest($2::uuid[], $3::text[], $4::int[], $5::jsonb[]) WITH ORDINALITY AS e(id, type, schema_version, data, n)
        ${after === null ? '' : 'WHERE EXISTS (SELECT FROM events WHERE stream_id = $1 AND stream_version = $8)'}
       RETURNING ${EVENT_COLUMNS}`,
      [
        append.streamId,
        events.map((e) => e.eventId ?? randomUUID()),
        events.map((e) => e.type),
        events.map((e) => e.schemaVersion ?? 1),
        events.map((e) => JSON.stringify(e.data ?? {})),
        JSON.stringify(metadata),
        recordedAt.toISOString(),
        ...(after === null ? [] : [after]),
      ],
    );
    if (rows.length === 0) throw new Error(`legacy append: ${append.streamId} is not at ${String(expectedVersion)}`);
    rows.map((r) => toStoredEvent(r, upcasters));
  }
}

/**
 * Write paths, side by side in one process and database:
 * - single event, next version: each transaction reads its stream (1–5 events) and appends one
 *   event at the version read, as a command handler does: `transaction` + `load` + `append` (the
 *   general path; also with the statements of 7178082), `load` + `commit`, and `handle`;
 * - single event, new stream: no read; `transaction` + `append`, `commit`, `handle` with `expect`;
 * - `streams` streams × 1 event in one transaction, each stream at a known version: the per-stream
 *   statements of 7178082, today's one insert (`transaction` + `append`), and `write` over named
 *   streams (which also reads the streams, one query).
 */
export async function benchAppendPaths(options: PathOptions): Promise<PathFigure[]> {
  const log = options.log ?? (() => undefined);
  const database = 'uvol_bench_paths';
  let dataSource: DataSource | undefined;
  let close = async () => undefined as unknown;
  try {
    const upcasters = new EventUpcasters();
    let store: EventStore;
    let db: DataSource;
    if (options.embedded) {
      // The application's own embedded database (PGlite behind its socket server) and EventStore,
      // with no projection registered for the bench's event types.
      const dataDir = mkdtempSync(join(tmpdir(), 'uvol-bench-paths-'));
      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      const app = await (
        await Test.createTestingModule({ imports: coreImports(config, { migrate: true }) }).compile()
      ).init();
      db = app.get(DataSource);
      store = app.get(EventStore);
      close = async () => {
        await app.close();
        rmSync(dataDir, { recursive: true, force: true });
      };
    } else {
      const url = await createScratch(database);
      close = () => dropScratch(database);
      db = dataSource = await openDataSource(url, options.concurrency + 2);
      store = new EventStore(db, upcasters, noInlineProjections, new PreparedStatements(db, { embedded: false }));
    }
    const internal = storeInternals(store);
    const meta = eventMetadata('bench');
    const seed = async (streamIds: readonly string[]) => {
      for (let i = 0; i < streamIds.length; i += 500) {
        const batch = streamIds
          .slice(i, i + 500)
          .map((streamId, k): StreamAppend => ({ streamId, expectedVersion: 'no_stream', events: [pathEvent(k)] }));
        await internal.transaction((tx) => internal.append(tx, batch, meta));
      }
    };

    /** Per appender, `per` single-event jobs on streams of their own, each already holding an event (`seeded`) or new. */
    const singles = (tag: string, appenders: number, seeded: boolean) => {
      const per = Math.ceil(options.singles / appenders);
      const streams = Math.max(1, Math.floor(per / 5));
      return Array.from({ length: appenders }, (_, w) =>
        Array.from({ length: per }, (_, j): Target[] =>
          seeded
            ? [{ streamId: `${tag}-w${w}-s${j % streams}`, version: 1 + Math.floor(j / streams) }]
            : [{ streamId: `${tag}-w${w}-n${j}`, version: 0 }],
        ),
      );
    };
    const multis = (tag: string) => {
      const groups = Math.max(1, Math.floor(options.multis / 4));
      return [
        Array.from({ length: options.multis }, (_, j): Target[] =>
          Array.from({ length: options.streams }, (_, k) => ({
            streamId: `${tag}-g${j % groups}-s${String(k).padStart(3, '0')}`,
            version: 1 + Math.floor(j / groups),
          })),
        ),
      ];
    };
    const one = (t: readonly Target[], i: number): StreamAppend => ({
      streamId: t[0]!.streamId,
      expectedVersion: t[0]!.version || 'no_stream',
      events: [pathEvent(i)],
    });
    const many = (t: readonly Target[], i: number) =>
      t.map((s, k): StreamAppend => ({ streamId: s.streamId, expectedVersion: s.version, events: [pathEvent(i + k)] }));

    const groups: { group: string; jobs: (tag: string) => Target[][][]; variants: [string, PathWrite][] }[] = [];
    for (const appenders of [1, options.concurrency]) {
      const suffix = appenders === 1 ? '' : `, ${appenders} appenders`;
      groups.push({
        group: `single event, next version${suffix}`,
        jobs: (tag) => singles(tag, appenders, true),
        variants: [
          [
            'transaction + load + append, statements of 7178082',
            (t, i) =>
              internal.transaction(async (tx) => {
                const version = (await store.readStream(t[0]!.streamId, 0, tx)).length;
                await legacyAppend(tx, upcasters, [{ ...one(t, i), expectedVersion: version }], meta);
              }),
          ],
          [
            'transaction + load + append',
            (t, i) =>
              internal.transaction(async (tx) => {
                const version = (await store.readStream(t[0]!.streamId, 0, tx)).length;
                await internal.append(tx, [{ ...one(t, i), expectedVersion: version }], meta);
              }),
          ],
          [
            'load + commit',
            async (t, i) => {
              const version = (await store.readStream(t[0]!.streamId)).length;
              await internal.commit({ ...one(t, i), expectedVersion: version }, meta);
            },
          ],
          ['handle', (t, i) => store.handle(t[0]!.streamId, countEvents, () => [pathEvent(i)], { metadata: meta })],
        ],
      });
      groups.push({
        group: `single event, new stream${suffix}`,
        jobs: (tag) => singles(tag, appenders, false),
        variants: [
          ['transaction + append', (t, i) => internal.transaction((tx) => internal.append(tx, [one(t, i)], meta))],
          ['commit', (t, i) => internal.commit(one(t, i), meta)],
          [
            "handle, expect 'no_stream'",
            (t, i) =>
              store.handle(t[0]!.streamId, countEvents, () => [pathEvent(i)], { metadata: meta, expect: 'no_stream' }),
          ],
        ],
      });
    }
    groups.push({
      group: `${options.streams} streams × 1 event in one transaction`,
      jobs: multis,
      variants: [
        [
          'transaction + per-stream appends of 7178082 (before)',
          (t, i) => internal.transaction((tx) => legacyAppend(tx, upcasters, many(t, i), meta)),
        ],
        [
          'transaction + append, one insert (after)',
          (t, i) => internal.transaction((tx) => internal.append(tx, many(t, i), meta)),
        ],
        [
          'write, named streams (reads the streams too)',
          (t, i) =>
            store.write({
              streams: () =>
                Object.fromEntries(t.map((s) => [s.streamId, { streamId: s.streamId, evolve: countEvents }])),
              decide: () => t.map((s, k) => ({ streamId: s.streamId, events: [pathEvent(i + k)] })),
              metadata: meta,
              retries: 0,
            }),
        ],
      ],
    });

    // Warm-up: connections, named statements, plans, JIT; every variant once on a small load.
    for (const [g, group] of groups.entries()) {
      for (const [v, [, write]] of group.variants.entries()) {
        const jobs = group.jobs(`warm-${g}-${v}`).map((txs) => txs.slice(0, 20));
        await seed([
          ...new Set(
            jobs
              .flat(2)
              .filter((t) => t.version > 0)
              .map((t) => t.streamId),
          ),
        ]);
        await Promise.all(
          jobs.map(async (txs) => {
            for (const [i, t] of txs.entries()) await write(t, i);
          }),
        );
      }
    }

    const figures: PathFigure[] = [];
    for (const [g, group] of groups.entries()) {
      const seconds = group.variants.map(() => [] as number[]);
      let transactions = 0;
      let events = 0;
      for (let round = 0; round < options.rounds; round++) {
        // Each round starts with the next variant, so none always runs first (or last) in a drift.
        for (let n = 0; n < group.variants.length; n++) {
          const v = (n + round) % group.variants.length;
          const [name, write] = group.variants[v]!;
          const jobs = group.jobs(`r${round}-${g}-${v}`);
          await seed([
            ...new Set(
              jobs
                .flat(2)
                .filter((t) => t.version > 0)
                .map((t) => t.streamId),
            ),
          ]);
          transactions = jobs.reduce((n, txs) => n + txs.length, 0);
          events = jobs.reduce((n, txs) => n + txs.reduce((m, t) => m + t.length, 0), 0);
          await db.query('CHECKPOINT');
          const started = performance.now();
          await Promise.all(
            jobs.map(async (txs) => {
              for (const [i, t] of txs.entries()) await write(t, i);
            }),
          );
          seconds[v]!.push(secondsSince(started));
          log(
            `paths ${group.group} · ${name}, round ${round + 1}: ${(transactions / seconds[v]!.at(-1)!).toFixed(0)} tx/s`,
          );
        }
      }
      group.variants.forEach(([name], v) =>
        figures.push({ group: group.group, name, transactions, events, seconds: seconds[v]! }),
      );
    }
    return figures;
  } finally {
    await dataSource?.destroy().catch(() => undefined);
    await close();
  }
}

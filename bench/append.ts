import { randomUUID } from 'node:crypto';
import { EventStore, EventUpcasters } from '#app/event-store';
import { PreparedStatements } from '#app/platform';
import type pg from 'pg';
import type { DataSource } from 'typeorm';
import { connect, createScratch, dropScratch, openDataSource, secondsSince } from './db.js';
import { EVENT_TYPES, eventData, eventMetadata } from './fixtures.js';

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
const noInlineProjections = { apply: async () => undefined, committed: () => undefined } as unknown as ConstructorParameters<typeof EventStore>[2];
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
        return { streamId: `${tag}-w${w}-b${j}`, version: k + 1, type: EVENT_TYPES[k % EVENT_TYPES.length]!, data: eventData(i) };
      }),
    ),
  );
}

async function storeWrite(store: EventStore, tx: Tx): Promise<void> {
  const fresh = tx.length > 1;
  await store.transaction((em) =>
    store.append(
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
    const store = new EventStore(dataSource, new EventUpcasters(), noInlineProjections, new PreparedStatements(dataSource, { embedded: false }));
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

import {
  EventUpcasters,
  op,
  type Projection,
  ProjectionRegistry,
  ProjectionReplayer,
  type StoredEvent,
} from '#app/event-store';
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { DataSource } from 'typeorm';
import { EVENT_COLUMNS, type EventRow, toStoredEvent } from '../libs/event-store/src/event-rows.js';
import { ColumnTypes, OpsWriter } from '../libs/event-store/src/ops-writer.js';
import { useJsonUpsert, withJsonUpsert } from './json-upsert.js';
import { connect, createScratch, dropScratch, openDataSource, secondsSince } from './db.js';
import { EVENT_TYPES, HANDLED_TYPES, STREAM_TYPE, eventData } from './fixtures.js';

export interface ReplayBenchOptions {
  readonly events: number;
  /** ProjectionReplayer batch size of the headline run. */
  readonly batchSize: number;
  /** Further batch sizes to replay with (each a full replay). */
  readonly sweep: readonly number[];
  /** Sub-measurements: read-only and write-only time. */
  readonly profile: boolean;
  /** Batch sizes to replay with the json_populate_recordset prototype writer (bench/json-upsert.ts). */
  readonly prototype: readonly number[];
  readonly log?: (line: string) => void;
}

export interface ReplayFigures {
  readonly events: number;
  readonly generateSeconds: number;
  readonly batchSize: number;
  /** ProjectionReplayer.replay, wall clock, everything included (counts, slices, catch-up, swap). */
  readonly replaySeconds: number;
  /** One INSERT … SELECT of the same rows into a same-shaped table. */
  readonly rawSeconds: number;
  readonly sweep: { batchSize: number; seconds: number }[];
  /** Full replays with the prototype upsert patched into OpsWriter. */
  readonly prototype: { batchSize: number; seconds: number }[];
  /** Name → seconds for the whole log (see README). */
  readonly profile: { name: string; seconds: number; note: string }[];
}

const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(v: unknown): unknown };

const TABLE = 'bench_rows';
const RAW_TABLE = 'bench_rows_raw';
const CHUNK = 100_000;

interface BenchData {
  readonly amount: number;
  readonly description: string;
}

/** One upsert per event, the shape of a typical list projection. */
const projection: Projection = {
  name: 'bench',
  version: 1,
  tables: [TABLE],
  handles: HANDLED_TYPES,
  project: (event: StoredEvent) => {
    const data = event.data as BenchData;
    return [
      op.upsert(TABLE, ['id'], {
        id: event.position,
        stream_id: event.streamId,
        amount: data.amount,
        label: data.description,
        data: event.data,
      }),
    ];
  },
};

const sqlList = (values: readonly string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(', ')}]`;

/** The same shape as fixtures.eventData, built by Postgres: one stream per 10 events, 1 transaction per 100k. */
async function generate(q: DataSource, events: number): Promise<void> {
  for (let from = 0; from < events; from += CHUNK) {
    const to = Math.min(events, from + CHUNK) - 1;
    await q.query(
      `INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata)
       SELECT gen_random_uuid(), 'claim-' || (i / 10), (i % 10) + 1, (${sqlList(EVENT_TYPES)})[(i % 10) + 1], 1,
              jsonb_build_object(
                'claimId', 'claim-' || (i / 10),
                'lineId', i,
                'amount', (i * 7919 % 100000) / 100.0,
                'currency', 'EUR',
                'category', (${sqlList(['travel', 'meals', 'lodging', 'equipment', 'training'])})[(i % 5) + 1],
                'description', 'Expense line ' || i || ': taxi from the airport to the client site',
                'incurredOn', format('2026-%s-%s', lpad(((i % 12) + 1)::text, 2, '0'), lpad(((i % 28) + 1)::text, 2, '0')),
                'vat', jsonb_build_object('rate', 21, 'amount', round((i * 7919 % 100000) / 100.0 * 0.21, 4)),
                'submittedBy', 1000 + i % 50,
                'tags', jsonb_build_array('client-a', 'project-' || i % 17)),
              jsonb_build_object('organisationId', 7, 'actorId', 42, 'correlationId', gen_random_uuid())
         FROM generate_series($1::bigint, $2::bigint) AS i`,
      [from, to],
    );
  }
  await q.query(
    `INSERT INTO streams (stream_id, stream_type, version)
     SELECT 'claim-' || s, $2, 10 FROM generate_series(0, $1::bigint - 1) AS s`,
    [Math.ceil(events / 10), STREAM_TYPE],
  );
}

async function createTables(q: DataSource): Promise<void> {
  await q.query(`DROP TABLE IF EXISTS ${TABLE}, ${RAW_TABLE}`);
  await q.query(
    `CREATE TABLE ${TABLE} (id bigint PRIMARY KEY, stream_id text NOT NULL, amount numeric, label text, data jsonb)`,
  );
  await q.query(`CREATE TABLE ${RAW_TABLE} (LIKE ${TABLE} INCLUDING ALL)`);
}

async function rawInsert(q: DataSource): Promise<number> {
  await q.query(`TRUNCATE ${RAW_TABLE}`);
  await q.query('CHECKPOINT');
  const started = performance.now();
  await q.query(
    `INSERT INTO ${RAW_TABLE} (id, stream_id, amount, label, data)
     SELECT position, stream_id, (data->>'amount')::numeric, data->>'description', data
       FROM events WHERE type = ANY($1::text[])`,
    [HANDLED_TYPES],
  );
  return secondsSince(started);
}

async function replay(q: DataSource, replayer: ProjectionReplayer, batchSize: number, events: number): Promise<number> {
  await q.query(`TRUNCATE ${TABLE}`);
  await q.query('CHECKPOINT');
  const started = performance.now();
  const result = await replayer.replay([projection.name], { batchSize });
  const seconds = secondsSince(started);
  if (result.events !== events) throw new Error(`replay saw ${result.events} events, expected ${events}`);
  return seconds;
}

/** The replayed table holds exactly what the raw INSERT … SELECT wrote. */
async function verify(q: DataSource): Promise<void> {
  const [{ differ }] = await q.query(
    `SELECT count(*)::int AS differ FROM ${TABLE} r FULL JOIN ${RAW_TABLE} w USING (id)
      WHERE r.id IS NULL OR w.id IS NULL
         OR (r.stream_id, r.amount, r.label, r.data) IS DISTINCT FROM (w.stream_id, w.amount, w.label, w.data)`,
  );
  if (differ !== 0) throw new Error(`replayed ${TABLE} differs from ${RAW_TABLE} in ${differ} rows`);
}

/** The replay's read query (rebuild phase), paged by position, consumed by `each`. */
async function readAll(
  query: (text: string, params: unknown[]) => Promise<unknown[]>,
  batchSize: number,
  columns: string,
  each: (rows: unknown[]) => void,
): Promise<number> {
  const started = performance.now();
  let after = 0;
  for (;;) {
    const rows = (await query(
      `SELECT ${columns} FROM events
        WHERE type = ANY($1::text[]) AND position > $2 AND transaction_id >= $3::xid8
          AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY position LIMIT $4`,
      [HANDLED_TYPES, after, '0', batchSize],
    )) as { position: string }[];
    if (rows.length === 0) break;
    after = Number(rows[rows.length - 1]!.position);
    each(rows);
  }
  return secondsSince(started);
}

/** Where the replay's time goes: each part over the whole log on its own. */
async function profile(
  url: string,
  q: DataSource,
  batchSize: number,
  events: number,
  log: (line: string) => void,
): Promise<ReplayFigures['profile']> {
  const out: ReplayFigures['profile'] = [];
  const record = (name: string, seconds: number, note: string) => {
    out.push({ name, seconds, note });
    log(`profile ${name}: ${seconds.toFixed(2)} s (${(events / seconds).toFixed(0)} ev/s)`);
  };
  const upcasters = new EventUpcasters();
  const runner = q.createQueryRunner();
  const client: pg.Client = await connect(url);
  try {
    // Server side only: the page queries with the rows folded into one aggregate row, so no
    // row crosses the wire (jsonb is still turned into text, as it is for the client).
    const server = await readAll(
      (text, params) =>
        client.query(
          `SELECT max(position)::text AS position, sum(length(data::text) + length(metadata::text)) AS bytes
             FROM (${text}) AS page HAVING count(*) > 0`,
          params,
        ).then((r) => r.rows),
      batchSize,
      EVENT_COLUMNS,
      () => undefined,
    );
    record('read: server only', server, 'the page queries, rows aggregated in Postgres');

    let rowsSeen = 0;
    const text = await readAll(
      (sql, params) => client.query(sql, params).then((r) => r.rows),
      batchSize,
      EVENT_COLUMNS.replace('data, metadata', 'data::text AS data, metadata::text AS metadata'),
      (rows) => (rowsSeen += rows.length),
    );
    record('read: pg, jsonb as text', text, 'rows to Node, no JSON.parse');

    const parsed = await readAll(
      (sql, params) => client.query(sql, params).then((r) => r.rows),
      batchSize,
      EVENT_COLUMNS,
      () => undefined,
    );
    record('read: pg, jsonb parsed', parsed, 'rows to Node, pg parses data and metadata');

    let projected = 0;
    const typeorm = await readAll(
      (sql, params) => runner.query(sql, params),
      batchSize,
      EVENT_COLUMNS,
      (rows) => {
        for (const row of rows as EventRow[]) projected += projection.project(toStoredEvent(row, upcasters)).length;
      },
    );
    record('read: TypeORM + toStoredEvent + project()', typeorm, 'what the replay does before writing');
    if (projected !== events || rowsSeen !== events) throw new Error('profile read the wrong number of events');

    // Write only: events built in memory (not timed), projected and written through OpsWriter
    // into an empty copy of the table, one flush per batch, as the replay writes its shadow.
    for (const t of ['bench_rows_w', 'bench_rows_j']) {
      await runner.query(`DROP TABLE IF EXISTS ${t}`);
      await runner.query(`CREATE TABLE ${t} (LIKE ${TABLE} INCLUDING ALL)`);
    }
    await runner.query('CHECKPOINT');
    const into = (t: string) => new Map([[TABLE, t]]);
    const sql = (text: string, params?: unknown[]) => runner.query(text, params);
    const writers: { name: string; note: string; writer: OpsWriter; seconds: number }[] = [
      {
        name: 'write: OpsWriter, statement not sent',
        note: 'project(), batching, parameter arrays (toParam, JSON.stringify)',
        writer: new OpsWriter(async (t, p) => (t.startsWith('INSERT') ? undefined : sql(t, p)), new ColumnTypes(), into('bench_rows_w')),
        seconds: 0,
      },
      {
        name: 'write: OpsWriter + pg parameter encoding',
        note: 'as above plus the array literals pg builds, not sent',
        writer: new OpsWriter(
          async (t, p) => (t.startsWith('INSERT') ? void (p ?? []).map((v) => prepareValue(v)) : sql(t, p)),
          new ColumnTypes(),
          into('bench_rows_w'),
        ),
        seconds: 0,
      },
      {
        name: 'write: OpsWriter + TypeORM, in-memory events',
        note: 'project(), unnest() upsert per batch, each statement its own transaction',
        writer: new OpsWriter(sql, new ColumnTypes(), into('bench_rows_w')),
        seconds: 0,
      },
      {
        name: 'write: prototype json_populate_recordset upsert',
        note: 'as above, batch sent as one json parameter (bench/json-upsert.ts)',
        writer: useJsonUpsert(new OpsWriter(sql, new ColumnTypes(), into('bench_rows_j'))),
        seconds: 0,
      },
    ];
    const recordedAt = new Date();
    for (let from = 0; from < events; from += batchSize) {
      const batch: StoredEvent[] = [];
      for (let i = from; i < Math.min(events, from + batchSize); i++) {
        batch.push({
          position: i + 1,
          transactionId: '1000',
          eventId: '00000000-0000-0000-0000-000000000000',
          streamId: `claim-${Math.floor(i / 10)}`,
          streamVersion: (i % 10) + 1,
          type: EVENT_TYPES[i % 10]!,
          schemaVersion: 1,
          data: eventData(i),
          metadata: {},
          recordedAt,
        });
      }
      for (const w of writers) {
        const started = performance.now();
        for (const e of batch) await w.writer.write(projection.project(e));
        await w.writer.flush();
        w.seconds += secondsSince(started);
      }
    }
    for (const w of writers) record(w.name, w.seconds, w.note);
    for (const t of ['bench_rows_w', 'bench_rows_j']) {
      const [{ n }] = await runner.query(`SELECT count(*)::int AS n FROM ${t}`);
      if (n !== events) throw new Error(`write profile wrote ${n} rows into ${t}, expected ${events}`);
    }
    const [{ differ }] = await runner.query(
      `SELECT count(*)::int AS differ FROM bench_rows_w a FULL JOIN bench_rows_j b USING (id)
        WHERE (a.stream_id, a.amount, a.label, a.data) IS DISTINCT FROM (b.stream_id, b.amount, b.label, b.data)`,
    );
    if (differ !== 0) throw new Error(`the json prototype wrote ${differ} rows differently`);
    await runner.query(`DROP TABLE bench_rows_w, bench_rows_j`);
  } finally {
    await client.end();
    await runner.release();
  }
  return out;
}

export async function benchReplay(options: ReplayBenchOptions): Promise<ReplayFigures> {
  const log = options.log ?? (() => undefined);
  const database = `uvol_bench_replay_${process.pid}`;
  const url = await createScratch(database);
  let dataSource: DataSource | undefined;
  try {
    dataSource = await openDataSource(url, 4);
    let started = performance.now();
    await generate(dataSource, options.events);
    // An old log is vacuumed: hint bits set and visibility map built, so neither side pays for that.
    await dataSource.query('VACUUM (ANALYZE) events');
    await dataSource.query('VACUUM (ANALYZE) streams');
    const generateSeconds = secondsSince(started);
    log(`replay: generated ${options.events} events in ${generateSeconds.toFixed(1)} s`);
    await createTables(dataSource);
    // Warm the cache for both sides.
    await dataSource.query(`SELECT count(*), sum(length(data::text)) FROM events`);

    const registry = new ProjectionRegistry({} as never);
    registry.add(projection);
    const replayer = new ProjectionReplayer(dataSource, registry, new EventUpcasters());

    const rawSeconds = await rawInsert(dataSource);
    log(`replay: raw INSERT … SELECT ${(options.events / rawSeconds).toFixed(0)} ev/s`);
    const replaySeconds = await replay(dataSource, replayer, options.batchSize, options.events);
    log(`replay: batchSize ${options.batchSize} ${(options.events / replaySeconds).toFixed(0)} ev/s`);
    await verify(dataSource);

    const sweep: ReplayFigures['sweep'] = [];
    for (const batchSize of options.sweep) {
      const seconds = await replay(dataSource, replayer, batchSize, options.events);
      sweep.push({ batchSize, seconds });
      log(`replay: batchSize ${batchSize} ${(options.events / seconds).toFixed(0)} ev/s`);
    }
    const prototype: ReplayFigures['prototype'] = [];
    for (const batchSize of options.prototype) {
      const seconds = await withJsonUpsert(() => replay(dataSource!, replayer, batchSize, options.events));
      await verify(dataSource);
      prototype.push({ batchSize, seconds });
      log(`replay (json prototype): batchSize ${batchSize} ${(options.events / seconds).toFixed(0)} ev/s`);
    }
    const profiled = options.profile ? await profile(url, dataSource, options.batchSize, options.events, log) : [];
    return {
      events: options.events,
      generateSeconds,
      batchSize: options.batchSize,
      replaySeconds,
      rawSeconds,
      sweep,
      prototype,
      profile: profiled,
    };
  } finally {
    await dataSource?.destroy().catch(() => undefined);
    await dropScratch(database);
  }
}

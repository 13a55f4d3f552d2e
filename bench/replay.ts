import { randomBytes } from 'node:crypto';
import {
  EventUpcasters,
  op,
  PersonalDataKeys,
  personalData,
  type Projection,
  ProjectionRegistry,
  ProjectionReplayer,
  type ReplayProgress,
  type StoredEvent,
} from '#app/event-store';
import type pg from 'pg';
import type { DataSource } from 'typeorm';
import { ColumnTypes, EVENT_COLUMNS, type EventRow, OpsWriter, toStoredEvent } from './internals.js';
import { connect, createScratch, dropScratch, openDataSource, secondsSince } from './db.js';
import { EVENT_TYPES, HANDLED_TYPES, eventData } from './fixtures.js';

export interface ReplayBenchOptions {
  readonly events: number;
  /** ProjectionReplayer batch size of the headline run; undefined: none passed, the replayer's default. */
  readonly batchSize?: number;
  /** Further batch sizes to replay with (each a full replay). */
  readonly sweep: readonly number[];
  /** Sub-measurements: read-only and write-only time. */
  readonly profile: boolean;
  /** Events of the write-only profile (built in memory; the read profile covers the whole log). */
  readonly profileWriteEvents: number;
  /** Also seal every event's `description` with its submitter's key and replay the sealed log (issue 32). */
  readonly sealed: boolean;
  readonly log?: (line: string) => void;
}

export interface ReplayFigures {
  readonly events: number;
  readonly generateSeconds: number;
  /** The headline run's batch size, as the replayer used it (the largest page it reported). */
  readonly batchSize: number;
  /** The headline run passed no batchSize: `batchSize` is the replayer's default. */
  readonly defaultBatchSize: boolean;
  /** ProjectionReplayer.replay, wall clock, everything included (counts, slices, catch-up, swap). */
  readonly replaySeconds: number;
  /** One INSERT … SELECT of the same rows into a same-shaped table: median of three runs. */
  readonly rawSeconds: number;
  readonly rawRuns: number[];
  readonly sweep: { batchSize: number; seconds: number }[];
  /** Each part of the replay on its own over `events` events (see README). */
  readonly profile: { name: string; events: number; seconds: number; note: string }[];
  /**
   * The same replay after every event's `description` was sealed with its submitter's key (50
   * users): the replayer opens each (one key query per batch). The plain replay just before it,
   * in the same minute, is its baseline. Null: not run.
   */
  readonly sealed: { sealSeconds: number; plainSeconds: number; sealedSeconds: number } | null;
}

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

/**
 * One full replay, timed. `batchSize` undefined passes none, so the replayer uses its default; the
 * batch size it really used is read back from its progress reports (the largest page).
 */
async function replay(
  q: DataSource,
  replayer: ProjectionReplayer,
  batchSize: number | undefined,
  events: number,
): Promise<{ seconds: number; batchSize: number }> {
  await q.query(`TRUNCATE ${TABLE}`);
  await q.query('CHECKPOINT');
  let done = 0;
  let page = 0;
  const onProgress = (p: ReplayProgress) => {
    page = Math.max(page, p.done - done);
    done = p.done;
  };
  const started = performance.now();
  const result = await replayer.replay(
    [projection.name],
    batchSize === undefined ? { onProgress } : { batchSize, onProgress },
  );
  const seconds = secondsSince(started);
  if (result.events !== events) throw new Error(`replay saw ${result.events} events, expected ${events}`);
  if (batchSize !== undefined && page !== Math.min(batchSize, events)) {
    throw new Error(`replay read pages of ${page} events, asked for ${batchSize}`);
  }
  return { seconds, batchSize: page };
}

/**
 * Seals the log's `description` of every event with its submitter's key, in place (as the
 * migration of issue 32 does), then replays it plainly once more and sealed once: the sealed
 * replayer opens every description, and the table must equal the raw copy of the clear log.
 */
async function sealedReplay(
  q: DataSource,
  registry: ProjectionRegistry,
  plain: ProjectionReplayer,
  batchSize: number,
  events: number,
  log: (line: string) => void,
): Promise<NonNullable<ReplayFigures['sealed']>> {
  personalData.declare<{ submittedBy: number }>(EVENT_TYPES, {
    owner: (d) => d.submittedBy,
    fields: { description: '' },
  });
  const keys = new PersonalDataKeys({ secretsKey: randomBytes(32) });
  const query = (text: string, params: unknown[]) => q.query(text, params) as Promise<unknown[]>;
  // The plain replay in the same minute, over the clear log: the sealed run's baseline.
  const { seconds: plainSeconds } = await replay(q, plain, batchSize, events);
  const started = performance.now();
  await q.query(`ALTER TABLE events DISABLE TRIGGER events_append_only`);
  for (let after = '0'; ;) {
    const rows: { position: string; type: string; data: unknown }[] = await q.query(
      `SELECT position, type, data FROM events WHERE position > $1 ORDER BY position LIMIT 10000`,
      [after],
    );
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.position;
    const sealedData = (await keys.seal(rows, query, true))!;
    await q.query(
      `UPDATE events e SET data = v.data FROM jsonb_to_recordset($1::jsonb) AS v(position bigint, data jsonb)
        WHERE e.position = v.position`,
      [JSON.stringify(rows.map((r, i) => ({ position: r.position, data: sealedData[i] })))],
    );
  }
  await q.query(`ALTER TABLE events ENABLE TRIGGER events_append_only`);
  await q.query('VACUUM (ANALYZE) events');
  const sealSeconds = secondsSince(started);
  const [{ clear }] = await q.query(
    `SELECT count(*)::int AS clear FROM events WHERE NOT (data->'description' ? '$sealed')`,
  );
  if (clear !== 0) throw new Error(`${clear} events still hold their description in clear`);
  log(`replay: sealed ${events} descriptions in ${sealSeconds.toFixed(1)} s`);
  await q.query(`SELECT count(*), sum(length(data::text)) FROM events`);
  const sealedReplayer = new ProjectionReplayer(q, registry, new EventUpcasters(), keys);
  const { seconds: sealedSeconds } = await replay(q, sealedReplayer, batchSize, events);
  await verify(q);
  log(
    `replay: sealed log ${(events / sealedSeconds).toFixed(0)} ev/s (plain ${(events / plainSeconds).toFixed(0)} ev/s)`,
  );
  return { sealSeconds, plainSeconds, sealedSeconds };
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
  writeEvents: number,
  log: (line: string) => void,
): Promise<ReplayFigures['profile']> {
  const out: ReplayFigures['profile'] = [];
  let counted = events;
  const record = (name: string, seconds: number, note: string) => {
    out.push({ name, events: counted, seconds, note });
    log(`profile ${name}: ${seconds.toFixed(2)} s for ${counted} events (${(counted / seconds).toFixed(0)} ev/s)`);
  };
  const upcasters = new EventUpcasters();
  const runner = q.createQueryRunner();
  const client: pg.Client = await connect(url);
  try {
    // Server side only: the page queries with the rows folded into one aggregate row, so no
    // row crosses the wire (jsonb is still turned into text, as it is for the client).
    const server = await readAll(
      (text, params) =>
        client
          .query(
            `SELECT max(position)::text AS position, sum(length(data::text) + length(metadata::text)) AS bytes
             FROM (${text}) AS page HAVING count(*) > 0`,
            params,
          )
          .then((r) => r.rows),
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
    counted = writeEvents;
    for (const t of ['bench_rows_w', 'bench_rows_s']) {
      await runner.query(`DROP TABLE IF EXISTS ${t}`);
      await runner.query(`CREATE TABLE ${t} (LIKE ${TABLE} INCLUDING ALL)`);
    }
    await runner.query('CHECKPOINT');
    const into = new Map([[TABLE, 'bench_rows_w']]);
    const sql = (text: string, params?: unknown[]) => runner.query(text, params);
    const writers: { name: string; note: string; writer: OpsWriter; seconds: number }[] = [
      {
        name: 'write: OpsWriter, statement not sent',
        note: 'project(), batching, JSON.stringify of each column',
        writer: new OpsWriter(
          async (text, params) => (text.startsWith('INSERT') ? undefined : sql(text, params)),
          new ColumnTypes(),
          into,
        ),
        seconds: 0,
      },
      {
        name: 'write: OpsWriter, full',
        note: 'as above plus the ROWS FROM (json_array_elements…) upsert per batch, autocommit',
        writer: new OpsWriter(sql, new ColumnTypes(), into),
        seconds: 0,
      },
    ];
    const recordedAt = new Date();
    for (let from = 0; from < writeEvents; from += batchSize) {
      const batch: StoredEvent[] = [];
      for (let i = from; i < Math.min(writeEvents, from + batchSize); i++) {
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

    // The same upsert with nothing crossing the wire: the rows come from the events table, one
    // statement per batch of the log, autocommit. Against the full write above, the difference is
    // shipping the batch as JSON parameters and unpacking them on the server.
    await runner.query('CHECKPOINT');
    let upserted = 0;
    let after = 0;
    const serverStarted = performance.now();
    while (upserted < writeEvents) {
      const [{ n, last }] = await runner.query(
        `WITH page AS (
           INSERT INTO bench_rows_s (id, stream_id, amount, label, data)
           SELECT position, stream_id, (data->>'amount')::numeric, data->>'description', data FROM events
            WHERE type = ANY($1::text[]) AND position > $2 ORDER BY position LIMIT $3
           ON CONFLICT (id) DO UPDATE SET stream_id = EXCLUDED.stream_id, amount = EXCLUDED.amount,
                                          label = EXCLUDED.label, data = EXCLUDED.data
           RETURNING id)
         SELECT count(*)::int AS n, max(id)::text AS last FROM page`,
        [HANDLED_TYPES, after, Math.min(batchSize, writeEvents - upserted)],
      );
      if (n === 0) break;
      upserted += n;
      after = Number(last);
    }
    record(
      'write: server only, same upsert from events',
      secondsSince(serverStarted),
      'INSERT … SELECT … ON CONFLICT DO UPDATE per batch, rows read from the log, nothing sent',
    );
    for (const t of ['bench_rows_w', 'bench_rows_s']) {
      const [{ n }] = await runner.query(`SELECT count(*)::int AS n FROM ${t}`);
      if (n !== writeEvents) throw new Error(`write profile wrote ${n} rows into ${t}, expected ${writeEvents}`);
    }
    await runner.query(`DROP TABLE bench_rows_w, bench_rows_s`);
  } finally {
    await client.end();
    await runner.release();
  }
  return out;
}

export async function benchReplay(options: ReplayBenchOptions): Promise<ReplayFigures> {
  const log = options.log ?? (() => undefined);
  // A fixed name: a run that was killed leaves it behind, the next run drops it first.
  const database = 'uvol_bench_replay';
  const url = await createScratch(database);
  let dataSource: DataSource | undefined;
  try {
    dataSource = await openDataSource(url, 4);
    const started = performance.now();
    await generate(dataSource, options.events);
    // An old log is vacuumed: hint bits set and visibility map built, so neither side pays for that.
    await dataSource.query('VACUUM (ANALYZE) events');
    const generateSeconds = secondsSince(started);
    log(`replay: generated ${options.events} events in ${generateSeconds.toFixed(1)} s`);
    await createTables(dataSource);
    // Warm the cache for both sides.
    await dataSource.query(`SELECT count(*), sum(length(data::text)) FROM events`);

    const registry = new ProjectionRegistry({} as never);
    registry.add(projection);
    const replayer = new ProjectionReplayer(dataSource, registry, new EventUpcasters());

    // The raw statement is short and its time swings with checkpoints and WAL: median of three.
    const raws: number[] = [];
    for (let i = 0; i < 3; i++) {
      raws.push(await rawInsert(dataSource));
      log(`replay: raw INSERT … SELECT ${(options.events / raws[i]!).toFixed(0)} ev/s`);
    }
    const rawSeconds = [...raws].sort((a, b) => a - b)[1]!;
    const headline = await replay(dataSource, replayer, options.batchSize, options.events);
    log(
      `replay: batchSize ${headline.batchSize}${options.batchSize === undefined ? ' (default)' : ''} ` +
        `${(options.events / headline.seconds).toFixed(0)} ev/s`,
    );
    await verify(dataSource);

    const sweep: ReplayFigures['sweep'] = [];
    for (const batchSize of options.sweep) {
      const { seconds } = await replay(dataSource, replayer, batchSize, options.events);
      await verify(dataSource);
      sweep.push({ batchSize, seconds });
      log(`replay: batchSize ${batchSize} ${(options.events / seconds).toFixed(0)} ev/s`);
    }
    const profiled = options.profile
      ? await profile(
          url,
          dataSource,
          headline.batchSize,
          options.events,
          Math.min(options.events, options.profileWriteEvents),
          log,
        )
      : [];
    // Last: it rewrites the log the runs above read in clear.
    const sealed = options.sealed
      ? await sealedReplay(dataSource, registry, replayer, headline.batchSize, options.events, log)
      : null;
    return {
      events: options.events,
      generateSeconds,
      batchSize: headline.batchSize,
      defaultBatchSize: options.batchSize === undefined,
      replaySeconds: headline.seconds,
      rawSeconds,
      rawRuns: raws,
      sweep,
      profile: profiled,
      sealed,
    };
  } finally {
    await dataSource?.destroy().catch(() => undefined);
    await dropScratch(database);
  }
}

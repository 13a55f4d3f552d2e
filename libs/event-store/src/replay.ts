import { Injectable, Optional } from '@nestjs/common';
import { DataSource, type QueryRunner } from 'typeorm';
import { EVENT_COLUMNS, type EventRow, toStoredEvent } from './event-rows.js';
import { LOCKS } from './locks.js';
import { PersonalDataKeys } from './personal-data/personal-data-keys.js';
import { byTable, ColumnTypes, OpsWriter } from './ops-writer.js';
import type { Projection } from './projection.js';
import { ProjectionRegistry } from './projection-registry.js';
import { createShadow, shadowOf, swapShadow } from './shadow-tables.js';
import { EventUpcasters } from './upcasters.js';

export interface ReplayProgress {
  readonly done: number;
  readonly total: number;
  readonly phase: 'rebuild' | 'catch-up' | 'swap';
}

export interface ReplayOptions {
  readonly batchSize?: number;
  readonly onProgress?: (p: ReplayProgress) => void;
}

export interface ReplayResult {
  readonly projections: string[];
  readonly events: number;
  readonly millis: number;
}

/** Below this many events left, replay stops catching up and finishes under the exclusive lock. */
const FINAL_CATCH_UP = 5_000;

/**
 * Rebuilds projections from the log; on PostgreSQL without stopping the API. The events are
 * projected into shadow tables while live appends keep updating the real ones; then, under the projections lock
 * (appends wait only for this step), the last events are projected and the shadows swapped in.
 *
 * Order: events of transactions that ended before a snapshot are read in position order, then
 * the next snapshot's, and so on. Within one stream, positions follow versions (the unique
 * (stream, version) key serialises its writers), and a writer that finished earlier never lands
 * in a later slice, so each stream's events are applied in version order, as live projection
 * applied them.
 */
@Injectable()
export class ProjectionReplayer {
  /** A replay of this process is under way (see lockReplay). */
  private running = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: ProjectionRegistry,
    private readonly upcasters: EventUpcasters,
    // Absent only where a benchmark builds the replayer by hand: sealed fields stay sealed then.
    @Optional() private readonly personal?: PersonalDataKeys,
  ) {}

  async replay(names: readonly string[], options: ReplayOptions = {}): Promise<ReplayResult> {
    const started = Date.now();
    const projections = this.registry.select(names);
    const types = [...new Set(projections.flatMap((p) => p.handles))];
    const tables = projections.flatMap((p) => p.tables);
    const reader = this.dataSource.createQueryRunner();
    const writer = this.dataSource.createQueryRunner();
    // Before the try: a replay refused because another is running must not drop that one's shadows.
    try {
      await this.lockReplay(reader);
    } catch (err) {
      await reader.release();
      await writer.release();
      throw err;
    }
    try {
      for (const table of tables) await createShadow(writer, table);
      const run = new ReplayRun(reader, writer, projections, types, tables, this.upcasters, options, this.personal);
      await run.rebuild();
      await writer.startTransaction();
      await writer.query(`SELECT pg_advisory_xact_lock(${LOCKS.projections})`);
      await run.slice(null, 'catch-up');
      for (const table of tables) await swapShadow(writer, table);
      await this.recordCheckpoints(writer, projections, run.lastPosition);
      await writer.commitTransaction();
      options.onProgress?.({ done: run.done, total: run.done, phase: 'swap' });
      return { projections: projections.map((p) => p.name), events: run.done, millis: Date.now() - started };
    } catch (err) {
      if (writer.isTransactionActive) await writer.rollbackTransaction();
      for (const table of tables)
        await writer.query(`DROP TABLE IF EXISTS "${shadowOf(table)}"`).catch(() => undefined);
      throw err;
    } finally {
      await reader.query(`SELECT pg_advisory_unlock(${LOCKS.replay})`).catch(() => undefined);
      await reader.release();
      await writer.release();
      this.running = false;
    }
  }

  /**
   * Another process's replay holds the advisory lock. This process's own is also refused by the
   * flag: embedded PGlite is one session for every connection, and an advisory lock is re-entrant
   * within a session, so there the lock alone would let two replays of one process both in.
   */
  private async lockReplay(q: QueryRunner): Promise<void> {
    const refusal = new Error('Another replay is running; wait for it to finish.');
    if (this.running) throw refusal;
    // Set before the first await, so a second call in the meantime is refused; `replay` clears it.
    this.running = true;
    try {
      const [{ locked }] = await q.query(`SELECT pg_try_advisory_lock(${LOCKS.replay}) AS locked`);
      if (!locked) throw refusal;
    } catch (err) {
      this.running = false;
      throw err;
    }
  }

  private async recordCheckpoints(q: QueryRunner, projections: readonly Projection[], position: number): Promise<void> {
    for (const p of projections) {
      await q.query(
        `INSERT INTO checkpoints (name, kind, position, version, rebuilt_at, updated_at)
         VALUES ($1, 'projection', $2, $3, now(), now())
         ON CONFLICT (name) DO UPDATE SET position = $2, version = $3, rebuilt_at = now(), updated_at = now()`,
        [p.name, position, p.version],
      );
    }
  }
}

/** One replay's moving parts: where it stands and how it writes. */
class ReplayRun {
  done = 0;
  lastPosition = 0;
  private total = 0;
  private lowerBound = '0';
  private readonly writer: OpsWriter;
  private readonly batchSize: number;

  constructor(
    private readonly reader: QueryRunner,
    private readonly writerQuery: QueryRunner,
    private readonly projections: readonly Projection[],
    private readonly types: readonly string[],
    tables: readonly string[],
    private readonly upcasters: EventUpcasters,
    private readonly options: ReplayOptions,
    private readonly personal?: PersonalDataKeys,
  ) {
    this.batchSize = options.batchSize ?? 2_000;
    const shadows = new Map(tables.map((t) => [t, shadowOf(t)]));
    this.writer = new OpsWriter((text, params) => writerQuery.query(text, params), new ColumnTypes(), shadows);
  }

  /** Slices of finished transactions until only a few events are left for the locked step. */
  async rebuild(): Promise<void> {
    const [{ total }] = await this.reader.query(
      `SELECT count(*)::int AS total FROM events WHERE type = ANY($1::text[])`,
      [this.types],
    );
    this.total = total;
    for (;;) {
      const [{ horizon }] = await this.reader.query(`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon`);
      await this.slice(horizon, 'rebuild');
      const [{ left }] = await this.reader.query(
        `SELECT count(*)::int AS left FROM events WHERE type = ANY($1::text[]) AND transaction_id >= $2::xid8`,
        [this.types, this.lowerBound],
      );
      if (left <= FINAL_CATCH_UP) return;
    }
  }

  /**
   * Projects events of transactions with ids in [lowerBound, upperBound), in position order.
   * Reading the next batch overlaps writing the current one. `upperBound` null: everything left
   * (only under the exclusive lock, when no appender is running). The locked step reads through
   * the writer's connection so it sees its own snapshot.
   */
  async slice(upperBound: string | null, phase: ReplayProgress['phase']): Promise<void> {
    const source = upperBound === null ? this.writerQuery : this.reader;
    let after = 0;
    let next = this.read(source, after, upperBound);
    for (;;) {
      const rows = await next;
      if (rows.length === 0) break;
      after = Number(rows[rows.length - 1]!.position);
      if (upperBound !== null) next = this.read(source, after, upperBound);
      await this.project(rows);
      if (upperBound === null) next = this.read(source, after, upperBound);
      this.options.onProgress?.({ done: this.done, total: Math.max(this.total, this.done), phase });
    }
    if (upperBound !== null) this.lowerBound = upperBound;
  }

  private async read(source: QueryRunner, after: number, upperBound: string | null): Promise<EventRow[]> {
    const rows: EventRow[] = await source.query(
      `SELECT ${EVENT_COLUMNS} FROM events
        WHERE type = ANY($1::text[]) AND position > $2 AND transaction_id >= $3::xid8
          ${upperBound === null ? '' : 'AND transaction_id < $5::xid8'}
        ORDER BY position LIMIT $4`,
      upperBound === null
        ? [this.types, after, this.lowerBound, this.batchSize]
        : [this.types, after, this.lowerBound, this.batchSize, upperBound],
    );
    // Sealed personal fields opened (one query for the batch's keys), overlapping the projection's writes.
    return this.personal ? this.personal.open(rows, (text, params) => source.query(text, params)) : rows;
  }

  private async project(rows: readonly EventRow[]): Promise<void> {
    const ops = rows.flatMap((row) => {
      const event = toStoredEvent(row, this.upcasters);
      return this.projections.flatMap((p) => (p.handles.includes(event.type) ? p.project(event) : []));
    });
    await this.writer.write(byTable(ops));
    await this.writer.flush();
    this.done += rows.length;
    this.lastPosition = Math.max(this.lastPosition, Number(rows[rows.length - 1]!.position));
  }
}

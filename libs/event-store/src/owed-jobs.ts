import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EVENT_COLUMNS, type EventRow, toStoredEvent } from './event-rows.js';
import type { LogCursor, StoredEvent } from './event.types.js';
import { PersonalDataKeys } from './personal-data/personal-data-keys.js';
import { EventUpcasters } from './upcasters.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The reactors' record of work still owed (docs/adr/0009-postgresql-records-owed-work.md): a row per
 * job handed to the queue, written with the checkpoint that moves past its event, deleted once the
 * job is done. The queue may forget a job (Redis restarted empty); this table does not.
 */
@Injectable()
export class OwedJobs {
  constructor(
    private readonly dataSource: DataSource,
    private readonly upcasters: EventUpcasters,
    private readonly personal: PersonalDataKeys,
  ) {}

  /**
   * Records these events' jobs as owed and moves the reactor's checkpoint past `last`, in one
   * statement (atomic on its own: no BEGIN and COMMIT round trips).
   */
  async recordPast(
    db: { query(text: string, params?: unknown[]): Promise<unknown> },
    reactor: string,
    eventIds: readonly string[],
    last: LogCursor,
  ): Promise<void> {
    await db.query(
      `WITH owed AS (INSERT INTO reactor_owed_jobs (reactor, event_id) SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING)
       INSERT INTO checkpoints (name, kind, transaction_id, position) VALUES ($1, 'reactor', $3::xid8, $4)
       ON CONFLICT (name) DO UPDATE SET transaction_id = $3::xid8, position = $4, updated_at = now()`,
      [reactor, eventIds, last.transactionId, last.position],
    );
  }

  /** The job of this id is done (a job id that is not an event id is not a reactor's: nothing to do). */
  async done(reactor: string, jobIds: readonly string[]): Promise<void> {
    const ids = jobIds.filter((id) => UUID.test(id));
    if (ids.length === 0) return;
    await this.dataSource.query(`DELETE FROM reactor_owed_jobs WHERE reactor = $1 AND event_id = ANY($2::uuid[])`, [
      reactor,
      ids,
    ]);
  }

  /** A page of what the reactor still owes, oldest first, recorded at least `settledMs` ago (its offer may be under way). */
  async page(reactor: string, after: string | null, limit: number, settledMs: number): Promise<string[]> {
    const rows: { event_id: string }[] = await this.dataSource.query(
      `SELECT event_id::text FROM reactor_owed_jobs
        WHERE reactor = $1 AND ($2::uuid IS NULL OR event_id > $2::uuid) AND recorded_at <= now() - $4 * interval '1 millisecond'
        ORDER BY event_id LIMIT $3`,
      [reactor, after, limit, settledMs],
    );
    return rows.map((r) => r.event_id);
  }

  /** How many jobs each reactor owes (projections:status, the fault drill). */
  async counts(): Promise<Map<string, number>> {
    const rows: { reactor: string; n: number }[] = await this.dataSource.query(
      `SELECT reactor, count(*)::int AS n FROM reactor_owed_jobs GROUP BY reactor`,
    );
    return new Map(rows.map((r) => [r.reactor, r.n]));
  }

  /** The events behind owed jobs, from which the reactor derives the same jobs again. */
  async events(eventIds: readonly string[]): Promise<StoredEvent[]> {
    const rows: EventRow[] = await this.dataSource.query(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE event_id = ANY($1::uuid[]) ORDER BY events.transaction_id, events.position`,
      [eventIds],
    );
    await this.personal.open(rows, (text, params) => this.dataSource.query(text, params));
    return rows.map((r) => toStoredEvent(r, this.upcasters));
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { offsetOf, type PageRequest } from '#app/platform';
import { EVENT_COLUMNS, type EventRow, toStoredEvent } from '../event-rows.js';
import { PersonalDataKeys } from '../personal-data/personal-data-keys.js';
import { EventUpcasters } from '../upcasters.js';
import { type History, historyEntries, type HistoryEntry, type UserResolver } from './history.js';

/**
 * A record's history from its stream (one reader for every context): a page of the events its
 * `History` shows, each as `{ at, actor, action, changes }`. Paged in SQL over the shown types, so
 * `total` counts exactly what the pages hold however long the stream grows.
 *
 * The stream id is not tenant-scoped: the caller reads the record through its own context first
 * (404 for another organisation's, 403 where the hierarchy hides it) and asks for its history only
 * then; `users` resolves actors within the caller's organisation.
 */
@Injectable()
export class HistoryReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly upcasters: EventUpcasters,
    private readonly personal: PersonalDataKeys,
  ) {}

  async page<U>(
    streamId: string,
    history: History,
    page: PageRequest,
    users: UserResolver<U>,
    order: 'oldest first' | 'newest first' = 'oldest first',
  ): Promise<{ items: HistoryEntry<U>[]; total: number }> {
    const direction = order === 'oldest first' ? 'ASC' : 'DESC';
    const rows: (EventRow & { total: string })[] = await this.dataSource.query(
      `SELECT ${EVENT_COLUMNS}, count(*) OVER () AS total FROM events WHERE stream_id = $1 AND type = ANY($2::text[])
        ORDER BY stream_version ${direction} LIMIT $3 OFFSET $4`,
      [streamId, history.types, page.perPage, offsetOf(page)],
    );
    await this.personal.open(rows, (text, params) => this.dataSource.query(text, params));
    // Past the last page the window has no row to count on.
    const total = rows.length > 0 ? Number(rows[0]!.total) : page.page > 1 ? await this.count(streamId, history) : 0;
    return {
      items: await historyEntries(
        rows.map((r) => toStoredEvent(r, this.upcasters)),
        history,
        users,
      ),
      total,
    };
  }

  private async count(streamId: string, history: History): Promise<number> {
    const [row]: { n: string }[] = await this.dataSource.query(
      `SELECT count(*) AS n FROM events WHERE stream_id = $1 AND type = ANY($2::text[])`,
      [streamId, history.types],
    );
    return Number(row!.n);
  }
}

import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Metrics } from '#app/platform';
import { ReactorRegistry } from './reactor-registry.js';

/**
 * `uvol_reactor_lag_events` (docs/metrics.md): for each reactor this process knows, the events of the
 * types it reads past its checkpoint. One statement a scrape; each type's count is a range of the
 * (type, transaction_id, position) index past the checkpoint, so it costs what the lag is.
 */
@Injectable()
export class ReactorLag implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reactors: ReactorRegistry,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    this.metrics.gaugeOnScrape(
      'uvol_reactor_lag_events',
      'Events in the log a reactor has not handled yet',
      ['reactor'],
      async () => {
        const reactors = this.reactors.all().map((r) => ({ name: r.name, types: r.handles }));
        if (reactors.length === 0) return [];
        const rows: { name: string; behind: number }[] = await this.dataSource.query(
          `SELECT r.name, coalesce(sum(n.behind), 0)::int AS behind
             FROM jsonb_to_recordset($1::jsonb) AS r(name text, types text[])
             LEFT JOIN checkpoints c ON c.name = r.name
             LEFT JOIN LATERAL unnest(r.types) AS t(type) ON true
             LEFT JOIN LATERAL (
               SELECT count(*) AS behind FROM events e
                WHERE e.type = t.type
                  AND (e.transaction_id, e.position) > (coalesce(c.transaction_id, '0'::xid8), coalesce(c.position, 0))
             ) n ON true
            GROUP BY r.name`,
          [JSON.stringify(reactors)],
        );
        return rows.map((r) => ({ labels: { reactor: r.name }, value: r.behind }));
      },
    );
  }
}

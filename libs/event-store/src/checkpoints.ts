import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ProjectionRegistry } from './projection-registry.js';
import { ReactorRegistry } from './reactor-registry.js';

export interface CheckpointStatus {
  readonly name: string;
  readonly kind: 'projection' | 'reactor';
  readonly position: number;
  /** Events of the types it reads that it has not handled yet. */
  readonly behind: number;
  readonly state: string;
}

/** What `projections:status` prints: each projection and reactor, its checkpoint and its lag. */
@Injectable()
export class Checkpoints {
  constructor(
    private readonly dataSource: DataSource,
    private readonly projections: ProjectionRegistry,
    private readonly reactors: ReactorRegistry,
  ) {}

  async status(): Promise<CheckpointStatus[]> {
    const rows: { name: string; position: string; version: number; rebuilt_at: Date | null; transaction_id: string }[] =
      await this.dataSource.query(`SELECT name, position, version, rebuilt_at, transaction_id::text FROM checkpoints`);
    const byName = new Map(rows.map((r) => [r.name, r]));
    const out: CheckpointStatus[] = [];
    for (const p of this.projections.all()) {
      const row = byName.get(p.name);
      // Inline projections commit with their events, so they are never behind the log; what can
      // go wrong is code that changed what it writes (a version bump) without a replay.
      const state = !row
        ? 'live (never rebuilt)'
        : row.version !== p.version
          ? `stale: rebuilt at version ${row.version}, code is at ${p.version}; run projections:replay ${p.name}`
          : `live (rebuilt ${row.rebuilt_at?.toISOString() ?? 'never'})`;
      out.push({ name: p.name, kind: 'projection', position: await this.head(p.handles), behind: 0, state });
    }
    for (const r of this.reactors.all()) {
      const row = byName.get(r.name);
      const cursor = { transactionId: row?.transaction_id ?? '0', position: Number(row?.position ?? 0) };
      const [{ behind }] = await this.dataSource.query(
        `SELECT count(*)::int AS behind FROM events
          WHERE type = ANY($3::text[]) AND (transaction_id, position) > ($1::xid8, $2::bigint)`,
        [cursor.transactionId, cursor.position, r.handles],
      );
      out.push({
        name: r.name,
        kind: 'reactor',
        position: cursor.position,
        behind,
        state: behind ? 'catching up' : 'idle',
      });
    }
    return out;
  }

  private async head(types: readonly string[]): Promise<number> {
    const [{ position }] = await this.dataSource.query(
      `SELECT coalesce(max(position), 0)::bigint AS position FROM events WHERE type = ANY($1::text[])`,
      [types],
    );
    return Number(position);
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

type Kind = 'pattern' | 'rota' | 'contact' | 'timeslot' | 'shift' | 'series' | 'swap';

/** Ids a `nextval` of a rotas sequence reserves (its INCREMENT BY, migrations/1763700030090-rota-id-blocks.ts). */
export const ID_BLOCK = 64;

/**
 * Ids come from the context's sequences before the events are written, so replay reproduces them.
 * Pooled (hi-lo): each `nextval` answers the first id of a block of ID_BLOCK this process alone
 * owns (the sequence steps by ID_BLOCK), handed out from memory until it runs out, so most
 * requests draw their ids without a round trip. Two processes never draw the same id: their blocks
 * come from distinct `nextval`s. Ids left in a block when the process stops are never used (a
 * gap, as after any rollback), and ids of two processes interleave out of time order: nothing
 * orders by id alone.
 */
@Injectable()
export class RotaIds {
  private readonly pools = new Map<Kind, { ids: number[]; refill?: Promise<void> }>();

  constructor(private readonly dataSource: DataSource) {}

  async next(kind: Kind): Promise<number> {
    return (await this.many(kind, 1))[0]!;
  }

  /** `count` ids (a rota's timeslots, a bulk of shifts, a generation chunk), ascending. */
  async many(kind: Kind, count: number): Promise<number[]> {
    if (count === 0) return [];
    let pool = this.pools.get(kind);
    if (!pool) this.pools.set(kind, (pool = { ids: [] }));
    while (pool.ids.length < count) {
      const p = pool;
      p.refill ??= this.refill(kind, p, count - p.ids.length).finally(() => (p.refill = undefined));
      await p.refill;
    }
    return pool.ids.splice(0, count);
  }

  /** Enough blocks for `missing` ids, in one query. */
  private async refill(kind: Kind, pool: { ids: number[] }, missing: number): Promise<void> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT nextval('rotas_${kind}_ids') AS id FROM generate_series(1, $1::int)`,
      [Math.ceil(missing / ID_BLOCK)],
    );
    const ids = rows.flatMap((r) => Array.from({ length: ID_BLOCK }, (_, i) => Number(r.id) + i));
    pool.ids.push(...ids);
    pool.ids.sort((a, b) => a - b);
  }
}

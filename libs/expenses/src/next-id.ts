import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

type Kind = 'type' | 'rate' | 'expense' | 'claim';

/** Ids come from a sequence before the event is written, so replay reproduces them. */
export async function nextId(tx: EntityManager, kind: Kind): Promise<number> {
  const [row] = await tx.query(`SELECT nextval('expenses_${kind}_ids') AS id`);
  return Number(row.id);
}

const BLOCK = 32;

/**
 * Ids drawn from the sequence a block at a time, for the hot create paths: one query per 32
 * creates instead of one each. Ids stay unique across processes (the sequence hands each its own
 * values); what is lost is contiguity: ids left in a block when the process stops are never used,
 * as with any sequence after a rollback, and ids from two processes interleave out of time order.
 * Nothing orders by id alone: lists order by date, id only breaks ties.
 */
@Injectable()
export class IdBlocks {
  private readonly blocks = new Map<Kind, { ids: number[]; refill?: Promise<void> }>();

  constructor(private readonly dataSource: DataSource) {}

  async next(kind: Kind): Promise<number> {
    let block = this.blocks.get(kind);
    if (!block) this.blocks.set(kind, (block = { ids: [] }));
    while (block.ids.length === 0) {
      const b = block;
      b.refill ??= this.refill(kind, b).finally(() => (b.refill = undefined));
      await b.refill;
    }
    return block.ids.shift()!;
  }

  private async refill(kind: Kind, block: { ids: number[] }): Promise<void> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT nextval('expenses_${kind}_ids') AS id FROM generate_series(1, ${BLOCK})`,
    );
    block.ids.push(...rows.map((r) => Number(r.id)).sort((a, b) => a - b));
  }
}

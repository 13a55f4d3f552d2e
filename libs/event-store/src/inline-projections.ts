import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ChangeFeed } from '#app/platform';
import type { StoredEvent } from './event.types.js';
import { byTable, ColumnTypes, OpsWriter, type Sql } from './ops-writer.js';
import { NotYetStored } from './pending-event.js';
import type { ProjectionOp } from './projection.js';
import { ProjectionRegistry } from './projection-registry.js';

export interface PlannedStatement {
  readonly text: string;
  readonly params: unknown[];
}

export interface Plan {
  readonly statements: readonly PlannedStatement[];
  readonly ops: readonly ProjectionOp[];
}

/**
 * Applies the projections to freshly appended events inside the appending transaction, and tells
 * the ChangeFeed which rows changed once that transaction has committed (caches evict at once).
 */
@Injectable()
export class InlineProjections {
  private readonly types = new ColumnTypes();
  private readonly written = new WeakMap<EntityManager, ProjectionOp[]>();

  constructor(
    private readonly registry: ProjectionRegistry,
    private readonly feed: ChangeFeed,
  ) {}

  async apply(tx: EntityManager, events: readonly StoredEvent[]): Promise<void> {
    const writer = new OpsWriter((text, params) => tx.query(text, params), this.types);
    const ops = this.project(events);
    this.written.set(tx, [...(this.written.get(tx) ?? []), ...ops]);
    await writer.write(ops);
    await writer.flush();
  }

  /** Every projection's ops for `events`, each table's in event order (byTable: so they batch). */
  private project(events: readonly StoredEvent[]): ProjectionOp[] {
    return byTable(
      events.flatMap((event) => this.registry.forType(event.type).flatMap((projection) => projection.project(event))),
    );
  }

  /** Rows that `tx`'s own statements wrote (a one-statement append inside it): reported when it commits. */
  remember(tx: EntityManager, ops: readonly ProjectionOp[]): void {
    this.written.set(tx, [...(this.written.get(tx) ?? []), ...ops]);
  }

  /** The transaction `tx` committed: report the rows its projections wrote. */
  committed(tx: EntityManager): void {
    this.announce(this.written.get(tx) ?? []);
    this.written.delete(tx);
  }

  announce(ops: readonly ProjectionOp[]): void {
    for (const o of ops) this.feed.changed({ table: o.table, row: o.kind === 'upsert' ? o.row : o.where });
  }

  /**
   * The projection writes for events not yet stored, as statements that each also require `guard`,
   * for the one-statement append; null when they cannot go in one statement: a projection read a
   * field only the database assigns (position, transaction id), or two statements write one table
   * (Postgres leaves it undefined which of two changes to one row in one statement wins).
   */
  async plan(events: readonly StoredEvent[], guard: string, catalog: Sql): Promise<Plan | null> {
    const statements: PlannedStatement[] = [];
    const writer = new OpsWriter(
      async (text, params = []) => {
        statements.push({ text, params });
      },
      this.types,
      new Map(),
      { guard, catalog },
    );
    let ops: ProjectionOp[];
    try {
      ops = this.project(events);
    } catch (error) {
      if (error instanceof NotYetStored) return null;
      throw error;
    }
    await writer.write(ops);
    await writer.flush();
    return statements.length === new Set(ops.map((o) => o.table)).size ? { statements, ops } : null;
  }
}

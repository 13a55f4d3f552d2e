import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { StoredEvent } from './event.types.js';
import { ColumnTypes, OpsWriter, type Sql } from './ops-writer.js';
import { NotYetStored } from './pending-event.js';
import { ProjectionRegistry } from './projection-registry.js';

export interface PlannedStatement {
  readonly text: string;
  readonly params: unknown[];
}

/** Applies the projections to freshly appended events inside the appending transaction. */
@Injectable()
export class InlineProjections {
  private readonly types = new ColumnTypes();

  constructor(private readonly registry: ProjectionRegistry) {}

  async apply(tx: EntityManager, events: readonly StoredEvent[]): Promise<void> {
    const writer = new OpsWriter((text, params) => tx.query(text, params), this.types);
    for (const event of events) {
      for (const projection of this.registry.forType(event.type)) await writer.write(projection.project(event));
    }
    await writer.flush();
  }

  /**
   * The projection writes for events not yet stored, as statements that each also require `guard`,
   * for the one-statement append; null when they cannot go in one statement: a projection read a
   * field only the database assigns (position, transaction id), or two statements write one table
   * (Postgres leaves it undefined which of two changes to one row in one statement wins).
   */
  async plan(events: readonly StoredEvent[], guard: string, catalog: Sql): Promise<PlannedStatement[] | null> {
    const statements: PlannedStatement[] = [];
    const tables = new Set<string>();
    const writer = new OpsWriter(
      async (text, params = []) => {
        statements.push({ text, params });
      },
      this.types,
      new Map(),
      { guard, catalog },
    );
    try {
      for (const event of events) {
        for (const projection of this.registry.forType(event.type)) {
          const ops = projection.project(event);
          for (const o of ops) tables.add(o.table);
          await writer.write(ops);
        }
      }
      await writer.flush();
    } catch (error) {
      if (error instanceof NotYetStored) return null;
      throw error;
    }
    return statements.length === tables.size ? statements : null;
  }
}

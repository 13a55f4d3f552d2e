import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { StoredEvent } from './event.types.js';
import { ColumnTypes, OpsWriter } from './ops-writer.js';
import { ProjectionRegistry } from './projection-registry.js';

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
}

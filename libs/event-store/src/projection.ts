import { DiscoveryService } from '@nestjs/core';
import type { StoredEvent } from './event.types.js';

export type Row = Readonly<Record<string, unknown>>;

/**
 * What a projection asks of its tables. Projections return these instead of running SQL, so the
 * same pure handler serves live projection (one event in the append transaction) and replay
 * (thousands of events batched into a few statements against a shadow table).
 * A `where` value that is an array matches any of its elements; `op.has(v)` matches an array
 * column that holds v.
 * Column values are scalars; a jsonb column takes any JSON value.
 */
export type ProjectionOp =
  | { readonly kind: 'upsert'; readonly table: string; readonly key: readonly string[]; readonly row: Row }
  | { readonly kind: 'update'; readonly table: string; readonly where: Row; readonly set: Row }
  | { readonly kind: 'delete'; readonly table: string; readonly where: Row };

/** A `where` value matching an array column that holds `value` (`$n = ANY(column)`). */
export class Holds {
  constructor(readonly value: string | number) {}
  toJSON(): unknown {
    return { holds: this.value };
  }
}

export const op = {
  has: (value: string | number): Holds => new Holds(value),
  upsert: (table: string, key: readonly string[], row: Row): ProjectionOp => ({ kind: 'upsert', table, key, row }),
  update: (table: string, where: Row, set: Row): ProjectionOp => ({ kind: 'update', table, where, set }),
  delete: (table: string, where: Row): ProjectionOp => ({ kind: 'delete', table, where }),
};

export interface Projection {
  /** Stable name, used by `projections:replay <name>` and in the checkpoints table. */
  readonly name: string;
  /** Bump when `project` changes what it writes; status then reports the table as stale. */
  readonly version: number;
  /** Every table the projection writes; replay rebuilds exactly these. */
  readonly tables: readonly string[];
  /** Event types it reads. */
  readonly handles: readonly string[];
  project(event: StoredEvent): readonly ProjectionOp[];
}

/** Marks a provider as an inline projection: `@AsProjection() class ClaimsProjection implements Projection`. */
export const AsProjection = DiscoveryService.createDecorator();

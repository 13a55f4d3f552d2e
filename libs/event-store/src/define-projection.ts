import type { StoredEvent } from './event.types.js';
import type { Projection, ProjectionOp } from './projection.js';
import type { Reactor, ReactorJob } from './reactor.js';

/** An event as a context declares it: a type name and its data. */
export interface TypedEvent {
  readonly type: string;
  readonly data: unknown;
}

/** The data of the event type K in the union E (a member may declare several types, `type: 'A' | 'B'`). */
export type DataOf<E extends TypedEvent, K extends string> = E extends {
  readonly type: infer T;
  readonly data: infer D;
}
  ? K extends T
    ? D
    : never
  : never;

/** The stored form of the event of type K in the union E: its data typed, the log's fields beside it. */
export type StoredOf<E extends TypedEvent, K extends E['type'] = E['type']> = StoredEvent<K, DataOf<E, K>>;

/**
 * One entry per event type of E, none missing and none extra (TypeScript checks both): a handler,
 * or null for a type the projection deliberately leaves alone (it is then not subscribed to).
 */
export type ProjectionHandlers<E extends TypedEvent> = {
  readonly [K in E['type']]: ((event: StoredOf<E, K>) => readonly ProjectionOp[]) | null;
};

export interface ProjectionSpec<E extends TypedEvent> {
  /** Stable name, used by `projections:replay <name>` and in the checkpoints table. */
  readonly name: string;
  /** Bump when a handler changes what it writes; status then reports the tables as stale. */
  readonly version: number;
  /** Every table the projection writes; replay rebuilds exactly these. */
  readonly tables: readonly string[];
  readonly on: ProjectionHandlers<E>;
}

type AnyHandler = (event: StoredEvent) => readonly ProjectionOp[];

/**
 * A projection from a table of handlers keyed by event type, so `handles` cannot drift from what
 * `project` does and a new event type of E is a compile error until the projection says what it
 * does with it. Returns a class, for the context to name and register as a provider:
 *
 *   @AsProjection() @Injectable()
 *   export class ClaimsProjection extends defineProjection<ClaimEvent>({ name, version, tables, on: { … } }) {}
 */
export function defineProjection<E extends TypedEvent>(spec: ProjectionSpec<E>): new () => Projection {
  const handlers = new Map(
    Object.entries(spec.on as Record<string, AnyHandler | null>).filter(
      (entry): entry is [string, AnyHandler] => entry[1] !== null,
    ),
  );
  const handles = Object.freeze([...handlers.keys()]);
  return class DefinedProjection implements Projection {
    readonly name = spec.name;
    readonly version = spec.version;
    readonly tables = spec.tables;
    readonly handles = handles;

    project(event: StoredEvent): readonly ProjectionOp[] {
      return handlers.get(event.type)?.(event) ?? [];
    }
  };
}

/** One entry per event type of E that the reactor turns into a job (null: nothing to do for this one). */
export type ReactorHandlers<E extends TypedEvent> = {
  readonly [K in E['type']]: (event: StoredOf<E, K>) => ReactorJob | null;
};

export interface ReactorSpec<E extends TypedEvent> {
  readonly name: string;
  /** The BullMQ queue its jobs go to; one reactor per queue keeps job ids (event ids) unique. */
  readonly queue: string;
  readonly on: ReactorHandlers<E>;
  /** One job per transaction (a request, a job's command): its first event's; see `Reactor.perTransaction`. */
  readonly perTransaction?: boolean;
}

/** A reactor from a table of handlers keyed by event type, as `defineProjection` is for projections. */
export function defineReactor<E extends TypedEvent>(spec: ReactorSpec<E>): new () => Reactor {
  const handlers = new Map(
    Object.entries(spec.on as unknown as Record<string, (event: StoredEvent) => ReactorJob | null>),
  );
  const handles = Object.freeze([...handlers.keys()]);
  return class DefinedReactor implements Reactor {
    readonly name = spec.name;
    readonly queue = spec.queue;
    readonly handles = handles;
    readonly perTransaction = spec.perTransaction ?? false;

    toJob(event: StoredEvent): ReactorJob | null {
      return handlers.get(event.type)?.(event) ?? null;
    }
  };
}

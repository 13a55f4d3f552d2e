import { actorUserId } from '../actor.js';
import type { StoredOf, TypedEvent } from '../define-projection.js';
import type { StoredEvent } from '../event.types.js';

/**
 * A user named inside an event's changes (a shift's volunteer, a rota's contact). The reader swaps
 * it for what the context's resolver answers (identity's UserBase), in the same batch as the actors:
 * the log holds ids, the record shows users, and the event store knows nothing of either's shape.
 */
export class UserRef {
  constructor(readonly id: number) {}
}

export const userRef = (id: number): UserRef => new UserRef(id);

/** What an event set on its record: the record's field names and output shapes (UserRef for a user). */
export type HistoryChanges = Readonly<Record<string, unknown>>;

/**
 * One entry per event type of E, none missing and none extra (as a projection's handlers): the
 * changes the event made, or null for a type the history does not show (an internal event, one
 * that only carries a secret). A new event type of E is a compile error until its context decides.
 */
export type HistoryFormats<E extends TypedEvent> = {
  readonly [K in E['type']]: ((event: StoredOf<E, K>) => HistoryChanges) | null;
};

/** A context's history of one kind of record: the stream types it shows and how each reads. */
export interface History {
  /** The event types shown, so the reader pages in SQL over exactly these. */
  readonly types: readonly string[];
  changes(event: StoredEvent): HistoryChanges;
}

type AnyFormat = (event: StoredEvent) => HistoryChanges;

export function defineHistory<E extends TypedEvent>(formats: HistoryFormats<E>): History {
  const shown = new Map(
    Object.entries(formats as Record<string, AnyFormat | null>).filter(
      (entry): entry is [string, AnyFormat] => entry[1] !== null,
    ),
  );
  return {
    types: Object.freeze([...shown.keys()]),
    changes: (event) => {
      const format = shown.get(event.type);
      if (!format) throw new Error(`History: ${event.type} is not shown`);
      return format(event);
    },
  };
}

/** One entry of a record's history, as every history route answers it. */
export interface HistoryEntry<U> {
  /** When the event was recorded, ISO 8601 (UTC). */
  at: string;
  /** Who caused it; null for the system (a worker, a scheduler) or a user the resolver does not know. */
  actor: U | null;
  /** The event's name without its context (`rotas.ShiftBooked` → `ShiftBooked`). */
  action: string;
  changes: Record<string, unknown>;
}

/** The users of `ids` (others simply absent): the context asks identity, the caller's organisation only. */
export type UserResolver<U> = (ids: readonly number[]) => Promise<ReadonlyMap<number, U>>;

/** The action of an event: its type without the context prefix. */
export const actionOf = (type: string): string => type.slice(type.indexOf('.') + 1);

/**
 * Entries of `events` (all of `history.types`), their actors and the users their changes name
 * resolved in one call. A user the resolver does not answer (removed, another organisation's) is
 * null, as an actor is.
 */
export async function historyEntries<U>(
  events: readonly StoredEvent[],
  history: History,
  users: UserResolver<U>,
): Promise<HistoryEntry<U>[]> {
  const drafts = events.map((e) => ({ event: e, actorId: actorUserId(e.metadata), changes: history.changes(e) }));
  const ids = new Set<number>();
  for (const d of drafts) {
    if (d.actorId !== null) ids.add(d.actorId);
    collectUsers(d.changes, ids);
  }
  const known = ids.size ? await users([...ids]) : new Map<number, U>();
  const user = (id: number) => known.get(id) ?? null;
  return drafts.map((d) => ({
    at: d.event.recordedAt.toISOString(),
    actor: d.actorId === null ? null : user(d.actorId),
    action: actionOf(d.event.type),
    changes: resolveUsers(d.changes, user) as Record<string, unknown>,
  }));
}

function collectUsers(value: unknown, into: Set<number>): void {
  if (value instanceof UserRef) into.add(value.id);
  else if (Array.isArray(value)) for (const v of value) collectUsers(v, into);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) collectUsers(v, into);
}

function resolveUsers(value: unknown, user: (id: number) => unknown): unknown {
  if (value instanceof UserRef) return user(value.id);
  if (Array.isArray(value)) return value.map((v) => resolveUsers(v, user));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveUsers(v, user)]));
  return value;
}

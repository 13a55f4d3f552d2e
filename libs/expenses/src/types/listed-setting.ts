import { NotFoundError } from '#app/platform';
import type { SettingsEvent } from '../expenses.events.js';

/**
 * Expense types and rates live alike, per organisation: created, changed (a change to what it is
 * already records nothing), deleted (off the lists; expenses that have one keep it). A deleted one,
 * or another organisation's, is not found. This makes the decider of one such setting from its
 * event names and how values apply to it.
 */
export interface Listed {
  readonly id: number;
  readonly organisationId: number;
}

export type ListedState<D extends Listed> = D & { readonly deleted: boolean };

/** A create (`id` drawn by the handler) or an update of the organisation's setting. */
export interface SaveListed<V> extends Listed {
  readonly values: V;
}

type EventType = SettingsEvent['type'];

export interface ListedSpec<D extends Listed, V> {
  /** For "… not found". */
  readonly what: string;
  readonly created: EventType;
  readonly changed: EventType;
  readonly deleted: EventType;
  /** The setting after the values, over the current one (null on create); throws a ValidationError for values it refuses. */
  readonly after: (current: D | null, cmd: SaveListed<V>) => D;
}

export function listedSetting<D extends Listed, V>(spec: ListedSpec<D, V>) {
  const live = (state: ListedState<D> | null, cmd: Listed): D => {
    if (!state || state.deleted || state.organisationId !== cmd.organisationId) throw new NotFoundError(spec.what);
    const { deleted: _, ...current } = state;
    return current as unknown as D;
  };
  const event = (type: EventType, data: D | Listed) => ({ type, data }) as SettingsEvent;
  return {
    evolve(state: ListedState<D> | null, e: SettingsEvent): ListedState<D> | null {
      if (e.type === spec.created || e.type === spec.changed) return { ...(e.data as D), deleted: false };
      if (e.type === spec.deleted) return state && { ...state, deleted: true };
      return state;
    },
    decideCreate(state: ListedState<D> | null, cmd: SaveListed<V>): SettingsEvent[] {
      if (state) throw new NotFoundError(spec.what);
      return [event(spec.created, spec.after(null, cmd))];
    },
    decideUpdate(state: ListedState<D> | null, cmd: SaveListed<V>): SettingsEvent[] {
      const current = live(state, cmd);
      const data = spec.after(current, cmd);
      const same = (Object.keys(data) as (keyof D)[]).every((k) => current[k] === data[k]);
      return same ? [] : [event(spec.changed, data)];
    },
    decideDelete(state: ListedState<D> | null, cmd: Listed): SettingsEvent[] {
      live(state, cmd);
      return [event(spec.deleted, { id: cmd.id, organisationId: cmd.organisationId })];
    },
  };
}

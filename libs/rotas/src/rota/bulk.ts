import type { StreamEvents } from '#app/event-store';
import { ConflictError, groupBy, ValidationError } from '#app/platform';
import { addDays } from '../domain/calendar-dates.js';
import { type Refusal, refusal, requiredMessage, throwIfRefused } from '../domain/refusals.js';
import {
  checkCloseDates,
  checkEndDate,
  checkRotaIds,
  checkRotaName,
  closeDates,
  reopenDates,
} from '../domain/rota-rules.js';
import { type RotaEvent, streamOf } from '../rotas.events.js';
import { calendarData, evolve, type RotaState } from './rota.js';

/**
 * `POST /api/rotas/bulk` (docs/rota-domain.md#bulk-actions): one action over many rotas, all or nothing. The
 * decision sees every listed rota at once (`Rotas`, folded from their streams) and answers the
 * events of all of them, or one refusal for the whole request.
 *
 * Decisions where the docs are silent (also in the route's OpenAPI description):
 * - `rota_ids` may repeat an id: each rota is acted on once (the 500 limit counts ids as sent).
 * - Archived rotas: `end_date` skips them (an interface rule); `archive_rotas` leaves an archived rota as it
 *   is (nothing to do); `name`, `close`, `reopen` and `add_contacts` refuse the whole request with a
 *   409 naming them, as an archived rota refuses every change.
 * - Nothing to do records nothing: the same name, dates already closed (or not closed, for
 *   `reopen`), the same end date, users who are contacts already.
 * - `data` holds only the action's fields: another field is a 422 naming it (`data.colour`).
 * - `close` records the dates it newly closes; `effectiveFrom` is the earliest of them. `reopen` is
 *   checked like `close` (1–366 dates, each today or later).
 */

export const BULK_ACTIONS = ['end_date', 'name', 'close', 'reopen', 'archive_rotas', 'add_contacts'] as const;
export type BulkActionName = (typeof BULK_ACTIONS)[number];

/** The fields `data` may hold for each action. */
export const BULK_DATA_FIELDS: Record<BulkActionName, readonly string[]> = {
  end_date: ['date'],
  name: ['name'],
  close: ['dates'],
  reopen: ['dates'],
  archive_rotas: [],
  add_contacts: ['user_ids'],
};

/**
 * The organisation feature `add_contacts` needs, the "second-version rota feature"
 * (docs/rota-domain.md#bulk-actions).
 */
export const ROTA_V2 = 'rota_v2';
export const MAX_CONTACT_USERS = 50;

/** Several rotas by id, as a multi-stream decision sees them. */
export type Rotas = ReadonlyMap<number, RotaState>;

/** The rota whose stream an event belongs to (a contact event's own id is the contact's). */
export const rotaIdOf = (event: RotaEvent): number =>
  event.type === 'rotas.RotaContactAdded' || event.type === 'rotas.RotaContactRemoved'
    ? event.data.rotaId
    : event.data.id;

/** Folds events of several rota streams into `Rotas` (for specs; the handler folds each stream itself). */
export function evolveRotas(rotas: Rotas | null, event: RotaEvent): Rotas {
  const all = new Map(rotas ?? []);
  const id = rotaIdOf(event);
  const next = evolve(all.get(id) ?? null, event);
  if (next) all.set(id, next);
  else all.delete(id);
  return all;
}

export interface BulkCommand {
  readonly organisationId: number;
  readonly action: BulkActionName;
  /** As sent (duplicates acted on once). */
  readonly rotaIds: readonly number[];
  /** The action's data as sent: checked here. */
  readonly data: unknown;
}

export interface BulkContext {
  /** Today in the organisation's zone. */
  readonly today: string;
  /** The teams the caller's manage-rotas reaches. */
  readonly manages: ReadonlySet<number>;
  /** The organisation's features. */
  readonly features: ReadonlySet<string>;
  /** Of the `data.user_ids` sent (add_contacts), those that are users of the organisation. */
  readonly users: ReadonlySet<number>;
  /** Contact ids drawn beforehand, at least one per contact the action adds (add_contacts). */
  readonly contactIds: readonly number[];
  /**
   * end_date: per rota, the next non-archived rota of its team (starting after it). One rota per
   * team per day: an end date on or after that rota's start is refused.
   */
  readonly nextTeamStarts?: ReadonlyMap<number, { rotaId: number; startDate: string }>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The rotas a bulk or replace body names: 1–500 ids (counted as sent), each a rota of the
 * organisation whose team the caller's manage-rotas reaches. The distinct rotas, in the order sent,
 * or a refusal naming `field` and listing the offending ids.
 */
export function managedRotas(
  rotas: Rotas,
  ids: readonly number[],
  organisationId: number,
  manages: ReadonlySet<number>,
  field: string,
): { rotas: RotaState[]; refusals: Refusal[] } {
  const shape = checkRotaIds(ids, field);
  if (shape.length) return { rotas: [], refusals: shape };
  const distinct = [...new Set(ids)];
  const found: RotaState[] = [];
  const offending: number[] = [];
  for (const id of distinct) {
    const rota = rotas.get(id);
    if (rota && rota.organisationId === organisationId && manages.has(rota.teamId)) found.push(rota);
    else offending.push(id);
  }
  const refusals = offending.length
    ? [
        refusal(
          field,
          `The ${field} field lists rotas that are unknown or that you do not manage (manage-rotas over the rota's team): ${offending.join(', ')}.`,
        ),
      ]
    : [];
  return { rotas: found, refusals };
}

/**
 * `data`'s shape for the action: an object holding only the action's fields. Absent or null is an
 * empty object: the action's own checks then name the field it needs (`data.date is required`).
 */
function dataShape(action: BulkActionName, data: unknown): { fields: Record<string, unknown>; refusals: Refusal[] } {
  if (data === undefined || data === null) return { fields: {}, refusals: [] };
  if (!isObject(data)) return { fields: {}, refusals: [refusal('data', 'The data field must be an object.')] };
  const allowed = BULK_DATA_FIELDS[action];
  const refusals = Object.keys(data)
    .filter((key) => !allowed.includes(key))
    .map((key) =>
      refusal(
        `data.${key}`,
        `The data.${key} field is not part of the ${action} action${allowed.length ? ` (its data: ${allowed.join(', ')})` : ' (it takes no data)'}.`,
      ),
    );
  return { fields: data, refusals };
}

/** add_contacts' `data.user_ids`: 1–50 positive integers (counted as sent), each a user of the organisation. */
export function checkContactUsers(
  userIds: unknown,
  users: ReadonlySet<number>,
  field = 'data.user_ids',
): { ids: number[]; refusals: Refusal[] } {
  if (userIds === undefined || userIds === null) return { ids: [], refusals: [refusal(field, requiredMessage(field))] };
  if (!Array.isArray(userIds)) return { ids: [], refusals: [refusal(field, `The ${field} field must be an array.`)] };
  if (userIds.length === 0)
    return { ids: [], refusals: [refusal(field, `The ${field} field must have at least 1 item.`)] };
  if (userIds.length > MAX_CONTACT_USERS)
    return {
      ids: [],
      refusals: [refusal(field, `The ${field} field must not have more than ${MAX_CONTACT_USERS} items.`)],
    };
  const typed = userIds.flatMap((id, i) =>
    Number.isSafeInteger(id) && (id as number) > 0
      ? []
      : [refusal(`${field}.${i}`, `The ${field}.${i} field must be a positive integer.`)],
  );
  if (typed.length) return { ids: [], refusals: typed };
  const ids = [...new Set(userIds as number[])];
  const unknown = ids.filter((id) => !users.has(id));
  return {
    ids,
    refusals: unknown.length
      ? [
          refusal(
            field,
            `The ${field} field lists users who are not users of this organisation: ${unknown.join(', ')}.`,
          ),
        ]
      : [],
  };
}

const refuseArchived = (rotas: readonly RotaState[], action: string) => {
  const archived = rotas.filter((r) => r.archived).map((r) => r.id);
  if (archived.length)
    throw new ConflictError(
      `An archived rota refuses every change; the ${action} action names archived rotas: ${archived.join(', ')}.`,
    );
};

/**
 * The bulk action's decision. Checks, in order: `add_contacts` without the organisation's `rota_v2`
 * feature (422 `action`); the rota ids and the action's data together (one 422 naming every field);
 * archived rotas where the action refuses them (409). Then each rota's events.
 */
export function decideBulk(rotas: Rotas | null, cmd: BulkCommand, ctx: BulkContext): RotaEvent[] {
  if (cmd.action === 'add_contacts' && !ctx.features.has(ROTA_V2)) {
    throw new ValidationError({ action: [`The add_contacts action needs the organisation's ${ROTA_V2} feature.`] });
  }
  const { rotas: targets, refusals } = managedRotas(
    rotas ?? new Map(),
    cmd.rotaIds,
    cmd.organisationId,
    ctx.manages,
    'rota_ids',
  );
  const shape = dataShape(cmd.action, cmd.data);
  // data of the wrong shape is named alone: its fields' own checks would only repeat it.
  if (shape.refusals.length) throwIfRefused([...refusals, ...shape.refusals]);
  const data = shape.fields;
  const base = (r: RotaState) => ({ id: r.id, organisationId: r.organisationId });
  switch (cmd.action) {
    case 'end_date': {
      const plan = checkEndDate(
        data.date,
        targets.map((r) => ({ rota_id: r.id, start_date: r.startDate, archived: r.archived })),
        ctx.today,
      );
      throwIfRefused(plan.ok ? refusals : [...refusals, ...plan.refusals]);
      if (!plan.ok) return [];
      const date = data.date as string;
      const clashes = targets.flatMap((r) => {
        const next = r.archived ? undefined : ctx.nextTeamStarts?.get(r.id);
        return next && date >= next.startDate
          ? [`rota ${r.id} (its team's rota ${next.rotaId} starts on ${next.startDate})`]
          : [];
      });
      if (clashes.length)
        throw new ValidationError({
          'data.date': [
            `One rota per team per day: the end date must be before the start of the team's next rota: ${clashes.join(', ')}.`,
          ],
        });
      return targets
        .filter((r) => !r.archived && r.endDate !== date)
        .map((r) => ({
          type: 'rotas.RotaEnded',
          data: {
            ...base(r),
            effectiveFrom: addDays(date, 1),
            calendar: calendarData({ ...r, endDate: date }),
            endDate: date,
            reason: 'end_date',
            supersededBy: null,
          },
        }));
    }
    case 'name': {
      throwIfRefused([...refusals, ...checkRotaName(data.name)]);
      refuseArchived(targets, cmd.action);
      const name = data.name as string;
      return targets
        .filter((r) => r.name !== name)
        .map((r) => ({ type: 'rotas.RotaChanged', data: { ...base(r), changes: { name } } }));
    }
    case 'close':
    case 'reopen': {
      const dates = checkCloseDates(data.dates, ctx.today);
      throwIfRefused(dates.ok ? refusals : [...refusals, ...dates.refusals]);
      if (!dates.ok) return [];
      refuseArchived(targets, cmd.action);
      return targets.flatMap((r): RotaEvent[] => {
        const closed = new Set(r.closedDates);
        if (cmd.action === 'close') {
          const fresh = dates.value.filter((d) => !closed.has(d));
          if (!fresh.length) return [];
          const closedDates = [...closeDates(closed, fresh)];
          return [
            {
              type: 'rotas.RotaClosed',
              data: {
                ...base(r),
                effectiveFrom: fresh[0]!,
                calendar: calendarData({ ...r, closedDates }),
                dates: fresh,
              },
            },
          ];
        }
        const lifted = dates.value.filter((d) => closed.has(d));
        if (!lifted.length) return [];
        return [
          {
            type: 'rotas.RotaReopened',
            data: { ...base(r), dates: lifted, closedDates: [...reopenDates(closed, lifted)].sort() },
          },
        ];
      });
    }
    case 'archive_rotas': {
      throwIfRefused(refusals);
      return targets
        .filter((r) => !r.archived)
        .map((r) => ({
          type: 'rotas.RotaArchived',
          data: { ...base(r), effectiveFrom: ctx.today, calendar: calendarData({ ...r, archived: true }) },
        }));
    }
    case 'add_contacts': {
      const users = checkContactUsers(data.user_ids, ctx.users);
      throwIfRefused([...refusals, ...users.refusals]);
      refuseArchived(targets, cmd.action);
      const adds = targets.flatMap((r) =>
        users.ids.filter((userId) => !r.contacts.has(userId)).map((userId) => ({ rota: r, userId })),
      );
      if (adds.length > ctx.contactIds.length)
        throw new ConflictError('The rotas’ contacts changed while this request was made; try again.');
      return adds.map(({ rota, userId }, i) => ({
        type: 'rotas.RotaContactAdded',
        data: { id: ctx.contactIds[i]!, organisationId: rota.organisationId, rotaId: rota.id, userId },
      }));
    }
  }
}

/** The events of a decision over several rotas, by stream. */
export function byRotaStream(events: readonly RotaEvent[]): StreamEvents[] {
  return [...groupBy(events, rotaIdOf)].map(([id, list]) => ({ streamId: streamOf.rota(id), events: list }));
}

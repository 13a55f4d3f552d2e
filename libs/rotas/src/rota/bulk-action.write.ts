import { isPositiveId } from '#app/platform';
import {
  type BulkActionName,
  type BulkCommand,
  type BulkContext,
  decideBulk,
  MAX_CONTACT_USERS,
  rotasToRead,
} from './bulk.js';
import type { RotaChange } from './rota-change.write.js';

/** The bulk actions that can leave booked shifts outside the rota. */
const CALENDAR_ACTIONS: ReadonlySet<BulkActionName> = new Set(['end_date', 'close', 'archive_rotas']);

/** add_contacts' user ids worth looking up: the positive ids of a well-formed list (the decision refuses the rest). */
export function contactUserIds(data: unknown): number[] {
  const ids = (data as { user_ids?: unknown } | null | undefined)?.user_ids;
  if (!Array.isArray(ids) || ids.length > MAX_CONTACT_USERS) return [];
  return [...new Set(ids.filter(isPositiveId))];
}

/**
 * `POST /api/rotas/bulk` (decideBulk): the caller's reach, the organisation's today and features,
 * and for add_contacts the users and the contact ids are read first; then one decision over every
 * listed rota's stream, appended together at the versions read, or nothing (a refusal; a
 * concurrent change of any of them makes the store decide again, a 409 only when it keeps
 * losing). end_date, close and archive_rotas cancel the shifts they leave outside the rotas, and
 * end the series they cut short, in the same write (rotaChangeWrite).
 */
export function bulkActionChange(command: BulkCommand, context: BulkContext, zone: string): RotaChange {
  return {
    zone,
    rotaIds: rotasToRead(command.rotaIds),
    movesCalendars: CALENDAR_ACTIONS.has(command.action),
    decide: ({ rotas }) => decideBulk(rotas, command, context),
  };
}

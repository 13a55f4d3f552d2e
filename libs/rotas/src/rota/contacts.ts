import { ConflictError, NotFoundError, ValidationError } from '#app/platform';
import type { RotaEvent } from '../rotas.events.js';
import type { RotaState } from './rota.js';

/**
 * A rota's contacts (docs/rota-domain.md#contacts): they live in the rota's stream, so "one contact record
 * per user and rota" is decided there and a race is settled by the stream's version.
 * Decisions where the docs are silent (also in the routes' OpenAPI descriptions):
 * - an archived rota refuses adding and removing contacts (409), as it refuses every change; adding
 *   a user who is a contact already changes nothing, archived or not, and answers that contact;
 * - the user is checked before the rota's state: a user of another organisation is a 422 even on
 *   an archived rota.
 */

/** The contact record of `userId` on the rota, or null. */
export function contactOf(state: Pick<RotaState, 'contacts'>, userId: number): number | null {
  return state.contacts.get(userId) ?? null;
}

export interface AddContact {
  readonly rotaId: number;
  readonly userId: number;
  /** Drawn beforehand; used only when the user is not a contact yet. */
  readonly contactId: number;
}

export interface AddContactContext {
  /** The user is a user of the rota's organisation. */
  readonly userExists: boolean;
}

/** Adds `userId` as a contact, unless they are one already (nothing recorded). */
export function decideAddContact(state: RotaState | null, cmd: AddContact, ctx: AddContactContext): RotaEvent[] {
  if (!state) throw new NotFoundError('Rota');
  if (!ctx.userExists)
    throw new ValidationError({ user_id: ['The user_id field names no user of this organisation.'] });
  if (contactOf(state, cmd.userId) !== null) return [];
  if (state.archived) throw new ConflictError('The rota is archived: an archived rota refuses every change.');
  return [
    {
      type: 'rotas.RotaContactAdded',
      data: { id: cmd.contactId, organisationId: state.organisationId, rotaId: state.id, userId: cmd.userId },
    },
  ];
}

export interface RemoveContact {
  readonly contactId: number;
}

/** Removes the contact record `contactId` of the rota (an id of no contact of this rota: 404). */
export function decideRemoveContact(state: RotaState | null, cmd: RemoveContact): RotaEvent[] {
  if (!state) throw new NotFoundError('Rota');
  const userId = [...state.contacts].find(([, id]) => id === cmd.contactId)?.[0];
  if (userId === undefined) throw new NotFoundError('Contact');
  if (state.archived) throw new ConflictError('The rota is archived: an archived rota refuses every change.');
  return [
    {
      type: 'rotas.RotaContactRemoved',
      data: { id: cmd.contactId, organisationId: state.organisationId, rotaId: state.id, userId },
    },
  ];
}

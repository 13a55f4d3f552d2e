import type { Handled } from '#app/event-store';
import { contactOf } from './contacts.js';
import type { RotaState } from './rota.js';

/** The contact record and whether this request made it (201) or found it (200). */
export interface AddedContact {
  readonly contactId: number;
  readonly created: boolean;
}

/**
 * `POST /api/rotas/{rota}/contacts` (decideAddContact) answers: the contact drawn when the write
 * added it, else the one the stream holds. Two requests adding the same user race on the rota's
 * stream: the loser's append fails on the stream version and it decides once more (`retries: 1`)
 * on the stream as the winner left it, where the user is a contact already: it answers that
 * contact (200). A second lost race in a row is the 409.
 */
export function addedContact(handled: Handled<RotaState>, drawn: number, userId: number): AddedContact {
  if (handled.events.length > 0) return { contactId: drawn, created: true };
  return { contactId: contactOf(handled.state!, userId)!, created: false };
}

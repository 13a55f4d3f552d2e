import { describe, expect, it } from '@jest/globals';
import type { Handled, StoredEvent } from '#app/event-store';
import { addedContact } from './add-contact.write.js';
import { rotaSeven } from './rota.fixtures.js';
import type { RotaState } from './rota.js';

const handled = (state: RotaState, events: readonly StoredEvent[]): Handled<RotaState> => ({
  streamId: 'rotas.Rota-7',
  nextExpectedVersion: 2,
  events,
  state,
});

describe('addedContact', () => {
  it('given the write appended the contact, then the id drawn, created (201)', () => {
    expect(addedContact(handled(rotaSeven(), [{} as StoredEvent]), 500, 30)).toEqual({ contactId: 500, created: true });
  });

  it('given the user a contact already (nothing appended), then that contact’s id, found (200)', () => {
    const state = rotaSeven({ contacts: new Map([[30, 77]]) });
    expect(addedContact(handled(state, []), 500, 30)).toEqual({ contactId: 77, created: false });
  });
});

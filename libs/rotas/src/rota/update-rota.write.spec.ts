import { describe, expect, it } from '@jest/globals';
import { ForbiddenError, NotFoundError } from '#app/platform';
import { rotaSeven } from './rota.fixtures.js';
import { decideRotaUpdate, type UpdateRotaReads } from './update-rota.write.js';

const reads = (manages: number[]): UpdateRotaReads => ({
  reach: { userId: 1, seen: new Set([3]), manages: new Set(manages), addsShifts: new Set(), onHold: false },
  roleProfilesOfOrganisation: new Set(),
  usersOfOrganisation: new Set([30]),
  contactIds: [500],
});

describe('decideRotaUpdate', () => {
  it('given no rota, or another organisation’s, then 404; one whose team the caller does not manage, then 403', () => {
    const rename = { organisationId: 1, name: 'Kitchen' };
    expect(() => decideRotaUpdate(rename, reads([3]))(null)).toThrow(NotFoundError);
    expect(() => decideRotaUpdate(rename, reads([3]))(rotaSeven({ organisationId: 2 }))).toThrow(NotFoundError);
    expect(() => decideRotaUpdate(rename, reads([]))(rotaSeven())).toThrow(ForbiddenError);
  });

  it('given a managed rota, when renamed and given a contact, then one change and the contact under the id drawn', () => {
    const events = decideRotaUpdate(
      { organisationId: 1, name: 'Kitchen', contacts: [{ id: 30, field: 'contacts.0.id' }] },
      reads([3]),
    )(rotaSeven());
    expect(events.map((e) => e.type)).toEqual(['rotas.RotaChanged', 'rotas.RotaContactAdded']);
    expect(events[1]!.data).toMatchObject({ id: 500, userId: 30 });
  });
});

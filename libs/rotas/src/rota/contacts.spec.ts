import { describe, it } from '@jest/globals';
import { ConflictError, NotFoundError, testDecider, ValidationError } from '#app/platform';
import type { RotaEvent } from '../rotas.events.js';
import { decideAddContact, decideRemoveContact } from './contacts.js';
import { evolve } from './rota.js';

const created: RotaEvent = {
  type: 'rotas.RotaCreated',
  data: {
    id: 1,
    organisationId: 1,
    teamId: 10,
    patternId: 5,
    startDate: '2026-11-01',
    endDate: null,
    timeslots: [],
    name: 'Shop',
    colour: '#112233',
    selfManage: false,
    allowSameDayAdd: true,
    allowSameDayCancel: false,
    allowSameDayEdit: false,
    restrictedByRole: false,
    roleProfileIds: [],
    requireFullTimeslot: false,
  },
};
const archived: RotaEvent = {
  type: 'rotas.RotaArchived',
  data: {
    id: 1,
    organisationId: 1,
    effectiveFrom: '2026-11-10',
    calendar: { startDate: '2026-11-01', endDate: null, archived: true, closedDates: [], timeline: [] },
  },
};
const added = (id: number, userId: number): RotaEvent => ({
  type: 'rotas.RotaContactAdded',
  data: { id, organisationId: 1, rotaId: 1, userId },
});
const removed = (id: number, userId: number): RotaEvent => ({
  type: 'rotas.RotaContactRemoved',
  data: { id, organisationId: 1, rotaId: 1, userId },
});

describe('adding a rota contact', () => {
  const add = testDecider({ evolve, decide: decideAddContact });
  const cmd = { rotaId: 1, userId: 30, contactId: 400 };

  it('given a rota without the user, when added, then the contact is recorded with the id drawn', () => {
    add
      .given([created])
      .when(cmd, { userExists: true })
      .then([added(400, 30)]);
  });

  it('given the user is a contact already, when added again, then nothing is recorded (the existing record answers)', () => {
    add
      .given([created, added(300, 30)])
      .when(cmd, { userExists: true })
      .then([]);
  });

  it('given the user was a contact and was removed, when added, then a new contact record is made', () => {
    add
      .given([created, added(300, 30), removed(300, 30)])
      .when(cmd, { userExists: true })
      .then([added(400, 30)]);
  });

  it('given a user of no organisation of the rota, then it is a 422 naming user_id', () => {
    add.given([created]).when(cmd, { userExists: false }).thenThrows(ValidationError, ['user_id']);
  });

  it('given an archived rota, when a new contact is added, then it is a 409; a contact already there is still answered', () => {
    add.given([created, archived]).when(cmd, { userExists: true }).thenThrows(ConflictError);
    add
      .given([created, added(300, 30), archived])
      .when(cmd, { userExists: true })
      .then([]);
  });

  it('given no rota, then it is a 404', () => {
    add.given([]).when(cmd, { userExists: true }).thenThrows(NotFoundError);
  });
});

describe('removing a rota contact', () => {
  const remove = testDecider({ evolve, decide: decideRemoveContact });

  it('given a contact, when removed by its record id, then the removal names the user', () => {
    remove
      .given([created, added(300, 30), added(301, 31)])
      .when({ contactId: 301 })
      .then([removed(301, 31)]);
  });

  it('given an id that is no contact of the rota (or was removed), then it is a 404', () => {
    remove
      .given([created, added(300, 30)])
      .when({ contactId: 999 })
      .thenThrows(NotFoundError, 'Contact not found');
    remove
      .given([created, added(300, 30), removed(300, 30)])
      .when({ contactId: 300 })
      .thenThrows(NotFoundError, 'Contact not found');
  });

  it('given an archived rota, then it is a 409', () => {
    remove
      .given([created, added(300, 30), archived])
      .when({ contactId: 300 })
      .thenThrows(ConflictError);
  });
});

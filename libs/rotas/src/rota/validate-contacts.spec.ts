import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '#app/platform';
import { validateContacts, type ValidateContactsFacts } from './validate-contacts.js';

/** Users 30 (add-user-shifts, sees teams 10 and 11), 31 (no permission, sees 10), 32 (manage-rotas, sees nothing). */
const facts: ValidateContactsFacts = {
  users: new Map([
    [30, 'Ann'],
    [31, 'Bob'],
    [32, 'Cat'],
  ]),
  permissions: new Map([
    [30, new Set(['add-user-shifts'])],
    [31, new Set<string>()],
    [32, new Set(['manage-rotas'])],
  ]),
  seen: new Map([
    [30, new Set([10, 11])],
    [31, new Set([10])],
    [32, new Set<number>()],
  ]),
  targets: new Map([
    [1, { name: 'Shop', teamId: 10 }],
    [2, { name: 'Cafe', teamId: 11 }],
  ]),
};

const refusal = (run: () => unknown): ValidationError => {
  try {
    run();
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error('expected a 422');
};

describe('validating rota contacts', () => {
  it('given users who see every target and hold a permission, then the answer is valid', () => {
    expect(validateContacts({ userIds: [30], rotaIds: [1, 2] }, facts)).toEqual({ valid: true, failures: [] });
  });

  it('given users who cannot see some targets or lack both permissions, then exactly those are failures, with their unseen targets in the order sent', () => {
    expect(validateContacts({ userIds: [32, 31, 30, 31], rotaIds: [2, 1, 2] }, facts)).toEqual({
      valid: false,
      failures: [
        {
          user_id: 32,
          display_name: 'Cat',
          missing_permission: false,
          unseen_targets: [
            { id: 2, name: 'Cafe' },
            { id: 1, name: 'Shop' },
          ],
        },
        { user_id: 31, display_name: 'Bob', missing_permission: true, unseen_targets: [{ id: 2, name: 'Cafe' }] },
      ],
    });
  });

  it('given a user who sees every target but holds neither permission, then they fail on the permission alone', () => {
    expect(validateContacts({ userIds: [31], teamIds: [1] }, facts).failures).toEqual([
      { user_id: 31, display_name: 'Bob', missing_permission: true, unseen_targets: [] },
    ]);
  });

  it('given no users, then the answer is valid', () => {
    expect(validateContacts({ userIds: [], rotaIds: [1] }, facts)).toEqual({ valid: true, failures: [] });
  });

  it('given both rota_ids and team_ids, or neither, then it is a 422 naming both (null counts as absent)', () => {
    expect(
      Object.keys(refusal(() => validateContacts({ userIds: [30], rotaIds: [1], teamIds: [1] }, facts)).errors!).sort(),
    ).toEqual(['rota_ids', 'team_ids']);
    expect(Object.keys(refusal(() => validateContacts({ userIds: [30] }, facts)).errors!).sort()).toEqual([
      'rota_ids',
      'team_ids',
    ]);
    expect(
      Object.keys(
        refusal(() => validateContacts({ userIds: [30], rotaIds: null, teamIds: null }, facts)).errors!,
      ).sort(),
    ).toEqual(['rota_ids', 'team_ids']);
    expect(validateContacts({ userIds: [30], rotaIds: [1], teamIds: null }, facts).valid).toBe(true);
  });

  it('given unknown users and targets, then one 422 names both lists, each unknown id once', () => {
    const err = refusal(() => validateContacts({ userIds: [30, 77, 77], rotaIds: [1, 9, 9, 8] }, facts));
    expect(err.errors).toEqual({
      user_ids: ['The user_ids field lists users who are not users of this organisation: 77.'],
      rota_ids: ['The rota_ids field lists rotas that are unknown or that you do not manage (manage-rotas): 9, 8.'],
    });
    expect(refusal(() => validateContacts({ userIds: [30], teamIds: [5] }, facts)).errors).toEqual({
      team_ids: ['The team_ids field lists teams that are unknown or that you do not manage (manage-rotas): 5.'],
    });
  });

  it('given lists over their limits (counted as sent, duplicates included), then it is a 422 naming them', () => {
    const many = (n: number, id: number) => Array.from({ length: n }, () => id);
    expect(
      Object.keys(
        refusal(() => validateContacts({ userIds: many(51, 30), rotaIds: many(501, 1) }, facts)).errors!,
      ).sort(),
    ).toEqual(['rota_ids', 'user_ids']);
    expect(
      Object.keys(refusal(() => validateContacts({ userIds: many(50, 30), teamIds: many(101, 1) }, facts)).errors!),
    ).toEqual(['team_ids']);
    expect(validateContacts({ userIds: many(50, 30), teamIds: many(100, 1) }, facts).valid).toBe(true);
  });
});

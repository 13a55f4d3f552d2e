import { describe, expect, it } from '@jest/globals';
import { bulkActionChange, contactUserIds } from './bulk-action.write.js';
import type { BulkActionName } from './bulk.js';
import { rotaSeven } from './rota.fixtures.js';

const context = {
  today: '2026-11-20',
  manages: new Set([3]),
  features: new Set<string>(),
  users: new Set<number>(),
  contactIds: [],
};
const change = (action: BulkActionName, data: unknown = {}, rotaIds = [7, 7]) =>
  bulkActionChange({ organisationId: 1, action, rotaIds, data }, context, 'Europe/London');

describe('contactUserIds', () => {
  it('given user_ids with repeats and bad ids, then the positive ids once; given no list or too long a list, then none', () => {
    expect(contactUserIds({ user_ids: [3, 3, -1, 'x', 4] })).toEqual([3, 4]);
    expect(contactUserIds({ user_ids: 'x' })).toEqual([]);
    expect(contactUserIds(null)).toEqual([]);
    expect(contactUserIds({ user_ids: Array.from({ length: 51 }, (_, i) => i + 1) })).toEqual([]);
  });
});

describe('bulkActionChange', () => {
  it('given end_date, close or archive_rotas, then the change can move calendars; given the others, then it cannot', () => {
    const moves = (['end_date', 'close', 'archive_rotas', 'name', 'reopen', 'add_contacts'] as const).map(
      (a) => change(a).movesCalendars,
    );
    expect(moves).toEqual([true, true, true, false, false, false]);
  });

  it('given a rota listed twice, then it is read once, and the decision renames it once', () => {
    const c = change('name', { name: 'Kitchen' });
    expect(c.rotaIds).toEqual([7]);
    const events = c.decide({ rotas: new Map([[7, rotaSeven()]]), teams: new Map() });
    expect(events.map((e) => e.type)).toEqual(['rotas.RotaChanged']);
  });
});

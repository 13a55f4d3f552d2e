import { describe, expect, it } from '@jest/globals';
import { usersNamedIn } from './deliveries.js';

describe('usersNamedIn (the users a webhook body names)', () => {
  it('finds every UserBase (id and display_name) and every user_id, at any depth, once each', () => {
    const body = JSON.stringify({
      type: 'shift.booked',
      timestamp: '2026-01-01T00:00:00Z',
      data: {
        id: 40,
        user: { id: 3, display_name: 'Ada', title: '' },
        rota: { id: 9, name: 'Kiosk', contacts: [{ id: 5, display_name: 'Bo' }] },
        expenses: [
          { id: 41, user_id: 3, description: 'taxi' },
          { id: 42, user_id: 6 },
        ],
      },
    });
    expect(usersNamedIn(body).sort((a, b) => a - b)).toEqual([3, 5, 6]);
  });

  it('names nobody in a body of records without people (a ping, a rota without contacts)', () => {
    expect(usersNamedIn(JSON.stringify({ type: 'ping', data: { endpoint_id: 2 } }))).toEqual([]);
    expect(usersNamedIn(JSON.stringify({ data: { id: 9, name: 'Kiosk', team: { id: 2, name: 'North' } } }))).toEqual(
      [],
    );
  });
});

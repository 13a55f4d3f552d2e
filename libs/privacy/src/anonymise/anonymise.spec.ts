import { describe, it } from '@jest/globals';
import type { StreamEvents } from '#app/event-store';
import { type DirectoryEvent, evolveUser } from '#app/identity';
import { NotFoundError, testDecider } from '#app/platform';
import { decideEndUserShifts } from '#app/rotas';
import { deepStrictEqual } from 'node:assert';
import { decideAnonymise } from './anonymise.js';
import { registered } from './anonymise.fixtures.js';

const at = new Date('2026-03-02T10:00:00.000Z');
const anonymised = (requestedBy: 'self' | 'manager' | 'operator' | 'retention'): DirectoryEvent => ({
  type: 'identity.UserAnonymised',
  data: { userId: 5, organisationId: 1, requestedBy, anonymisedAt: at.toISOString() },
});

describe('anonymising a user (docs/privacy.md#anonymising-a-user)', () => {
  const user = testDecider({ evolve: evolveUser, decide: decideAnonymise });

  it('given a registered user, when a manager asks, then one UserAnonymised says who asked and when, nothing personal', () => {
    user
      .given([registered])
      .when({ userId: 5, requestedBy: 'manager', at })
      .then([anonymised('manager')]);
  });

  it('given a user on hold, when they ask themselves, then they are anonymised too', () => {
    user
      .given([registered, { type: 'identity.UserHeld', data: { userId: 5, organisationId: 1 } }])
      .when({ userId: 5, requestedBy: 'self', at })
      .then([anonymised('self')]);
  });

  it('given a user anonymised already, when the operator asks again, then nothing is recorded (skipped)', () => {
    user
      .given([registered, anonymised('manager')])
      .when({ userId: 5, requestedBy: 'operator', at })
      .then([]);
  });

  it('given no such user, when asked, then it is a 404 and nothing is recorded', () => {
    user.given([]).when({ userId: 5, requestedBy: 'manager', at }).thenThrows(NotFoundError);
  });
});

describe("ending an anonymised user's rota bookings", () => {
  const now = Date.parse('2026-03-02T10:00:00Z');
  const shift = (id: number, start: string, extra: object = {}) => ({
    id,
    organisationId: 1,
    rotaId: 3,
    teamId: 2,
    userId: 5,
    seriesId: null,
    date: start.slice(0, 10),
    start,
    end: start,
    startWall: '',
    endWall: '',
    cancelled: null,
    sequence: 0,
    attendance: null,
    ...extra,
  });
  const cancelled = (id: number, date: string, sequence = 1): StreamEvents => ({
    streamId: `rotas.Shift-${id}`,
    events: [
      {
        type: 'rotas.ShiftCancelled',
        data: { id, organisationId: 1, rotaId: 3, userId: 5, date, reason: 'user_anonymised', sequence },
      },
    ],
  });

  it('given shifts past, started, cancelled, with attendance and to come, when ending, then only those to come are cancelled', () => {
    const decided = decideEndUserShifts(
      [
        shift(1, '2026-03-01T10:00:00Z'),
        shift(2, '2026-03-02T10:00:00Z'),
        shift(3, '2026-03-03T10:00:00Z', { cancelled: 'cancelled' }),
        shift(4, '2026-03-03T10:00:00Z', { attendance: { status: 'attended' } }),
        shift(5, '2026-03-04T10:00:00Z', { sequence: 2 }),
        null,
      ] as never,
      [],
      now,
    );
    deepStrictEqual(decided, [cancelled(5, '2026-03-04', 3)]);
  });

  it('given a series without an end and one ending before today, when ending on today, then only the first ends, that day', () => {
    const series = (id: number, endDate: string | null) =>
      ({ id, organisationId: 1, userId: 5, endDate, until: '2026-06-01' }) as never;
    const decided = decideEndUserShifts(
      [],
      [
        { state: series(7, null), today: '2026-03-02' },
        { state: series(8, '2026-03-01'), today: '2026-03-02' },
      ],
      now,
    );
    deepStrictEqual(decided, [
      {
        streamId: 'rotas.RepeatingShift-7',
        events: [
          {
            type: 'rotas.RepeatingShiftEnded',
            data: { id: 7, organisationId: 1, endDate: '2026-03-02', until: '2026-03-02', reason: 'user_anonymised' },
          },
        ],
      },
    ]);
  });
});

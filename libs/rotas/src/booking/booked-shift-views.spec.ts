import { describe, expect, it } from '@jest/globals';
import type { TeamObject, UserBase } from '#app/identity';
import { bookedShiftViews } from './shift.queries.js';

const user = { id: 7, display_name: 'Vol' } as UserBase;
const team = { id: '3', name: 'Shop' } as TeamObject;
const times = { date: '2027-03-01', start: '2027-03-01T09:00:00.000Z', end: '2027-03-01T10:00:00.000Z' };
const booked = (id: number, seriesId: number | null) =>
  ({
    type: 'rotas.ShiftBooked',
    data: {
      ...times,
      startWall: '2027-03-01 09:00',
      endWall: '2027-03-01 10:00',
      id,
      organisationId: 1,
      rotaId: 5,
      teamId: 3,
      userId: 7,
      seriesId,
    },
  }) as const;

describe('bookedShiftViews', () => {
  it('given a single booking, when its record is built from the event, then it is the Shift record with no series or attendance', () => {
    expect(bookedShiftViews([booked(11, null)], new Map([[7, user]]), new Map([[3, team]]))).toEqual([
      {
        id: 11,
        user,
        date: '2027-03-01',
        start_time: '09:00',
        start_datetime: '2027-03-01 09:00',
        end_time: '10:00',
        end_datetime: '2027-03-01 10:00',
        team,
        recurrence_pattern: null,
        rota_id: 5,
        attendance: null,
        stand_in: null,
      },
    ]);
  });

  it('given a booking that starts a series, when built, then its recurrence_pattern is the started series', () => {
    const started = {
      type: 'rotas.RepeatingShiftStarted',
      data: { id: 4, frequency: 2, weekdays: ['mon', 'thu'], endDate: '2027-06-01' },
    } as never;
    const [view] = bookedShiftViews([booked(12, 4), started], new Map([[7, user]]), new Map([[3, team]]));
    expect(view!.recurrence_pattern).toEqual({
      id: 4,
      recurrence_period: 'week',
      recurrence_frequency: 2,
      end_date: '2027-06-01',
      mon: 1,
      tue: 0,
      wed: 0,
      thu: 1,
      fri: 0,
      sat: 0,
      sun: 0,
    });
  });
});

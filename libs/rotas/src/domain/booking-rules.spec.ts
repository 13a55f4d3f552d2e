import { describe, expect, it } from '@jest/globals';
import { ForbiddenError, ValidationError } from '#app/platform';
import {
  type BookedSpan,
  type BookingFacts,
  bookingRefusal,
  cancelRefusal,
  checkBooking,
  checkBookingAccess,
  checkCancel,
  maxConcurrent,
  overlaps,
  type ShiftSpan,
} from './booking-rules.js';
import type { RotaCalendar } from './rota-calendar.js';
import type { RotaTimeslot, Weekday } from './weekly-timeslots.js';

// January in London: the wall clock is UTC, so 'YYYY-MM-DD HH:MM' reads as Z. 2027-01-11 is a Monday.
const at = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}Z`);
const span = (start: string, end: string): ShiftSpan => ({ date: start.slice(0, 10), start: at(start), end: at(end) });
const booked = (id: number, start: string, end: string): BookedSpan => ({
  id,
  userId: 7,
  rotaId: 1,
  ...span(start, end),
});
const slot = (
  id: number,
  weekday_start: Weekday,
  start_time: string,
  weekday_end: Weekday,
  end_time: string,
  max: number,
): RotaTimeslot => ({ id, weekday_start, start_time, weekday_end, end_time, min: 0, ideal: 1, max });
const calendar = (timeslots: RotaTimeslot[], more: Partial<RotaCalendar> = {}): RotaCalendar => ({
  start_date: '2027-01-01',
  end_date: null,
  archived: false,
  closed_dates: new Set(),
  timeline: [{ from: '2027-01-01', to: null, timeslots }],
  ...more,
});
const MONDAYS = [
  slot(1, 'monday', '09:00', 'monday', '10:00', 1),
  slot(2, 'monday', '10:00', 'monday', '12:00', 2),
  slot(3, 'monday', '22:00', 'tuesday', '06:00', 1),
];

const VOLUNTEER = { userId: 7, seesRota: true, manager: false };
const MANAGER = { userId: 1, seesRota: true, manager: true };
const SYSTEM = { userId: 0, seesRota: false, manager: false, system: true };
const BASE: BookingFacts = {
  action: 'add',
  rota: {
    id: 1,
    teamId: 4,
    calendar: calendar(MONDAYS),
    zone: 'Europe/London',
    selfManage: true,
    requireFullTimeslot: false,
    restrictedByRole: false,
    roleProfileIds: [],
    allowSameDayAdd: false,
    allowSameDayEdit: false,
    allowSameDayCancel: false,
  },
  user: { id: 7, inOrganisation: true, seesRota: true, onHold: false, roleProfileIds: [20] },
  caller: VOLUNTEER,
  shift: span('2027-01-11 09:00', '2027-01-11 09:30'),
  userShifts: [],
  rotaDayShifts: [],
  ignoreOnHold: false,
  confirmRoleRestriction: false,
  now: at('2027-01-04 12:00'),
};
type More = Partial<Omit<BookingFacts, 'rota' | 'user'>> & {
  rota?: Partial<BookingFacts['rota']>;
  user?: Partial<BookingFacts['user']>;
};
const given = ({ rota, user, ...more }: More = {}): BookingFacts => ({
  ...BASE,
  ...more,
  rota: { ...BASE.rota, ...rota },
  user: { ...BASE.user, ...user },
});
const refused = (more: More) => bookingRefusal(given(more));

describe('overlaps / maxConcurrent (half-open intervals)', () => {
  it('given shifts that only touch, then they neither overlap nor coexist; given overlapping ones, then both count', () => {
    const [a, b, c] = [
      span('2027-01-11 09:00', '2027-01-11 09:30'),
      span('2027-01-11 09:30', '2027-01-11 10:00'),
      span('2027-01-11 09:15', '2027-01-11 09:45'),
    ];
    expect([overlaps(a, b), overlaps(a, c), overlaps(b, c)]).toEqual([false, true, true]);
    const hour = span('2027-01-11 09:00', '2027-01-11 10:00');
    expect([
      maxConcurrent([a, b], hour),
      maxConcurrent([a, b, c], hour),
      maxConcurrent([a, c], b),
      maxConcurrent([], hour),
    ]).toEqual([1, 2, 1, 0]);
  });
});

describe('checkBookingAccess: the 403s before any rule', () => {
  it('given a caller who cannot see the rota, then forbidden; given the worker, then never', () => {
    expect(() => checkBookingAccess(given({ caller: { ...VOLUNTEER, seesRota: false } }))).toThrow(ForbiddenError);
    expect(() => checkBookingAccess(given({ caller: SYSTEM, rota: { selfManage: false } }))).not.toThrow();
  });

  it("given a volunteer acting on another user's shift, then forbidden; given a manager, then allowed", () => {
    expect(() => checkBookingAccess(given({ user: { id: 8 } }))).toThrow(ForbiddenError);
    expect(() => checkBookingAccess(given({ user: { id: 8 }, caller: MANAGER }))).not.toThrow();
  });

  it("given a volunteer's own shift on a rota without self_manage, then forbidden unless they manage it", () => {
    expect(() => checkBookingAccess(given({ rota: { selfManage: false } }))).toThrow(ForbiddenError);
    expect(() =>
      checkBookingAccess(given({ rota: { selfManage: false }, user: { id: 1 }, caller: MANAGER })),
    ).not.toThrow();
    expect(() => checkBookingAccess(given())).not.toThrow();
  });
});

describe('bookingRefusal: rules 1–8 in order', () => {
  it('given a shift that breaks no rule, then null', () => {
    expect(refused({})).toBeNull();
  });

  it('rule 1: given a closed date, a weekday without timeslots, an archived or ended rota, then `rota` says why', () => {
    expect(refused({ rota: { calendar: calendar(MONDAYS, { closed_dates: new Set(['2027-01-11']) }) } })).toEqual({
      field: 'rota',
      message: 'This rota is closed on 2027-01-11.',
    });
    expect(refused({ shift: span('2027-01-12 09:00', '2027-01-12 09:30') })?.message).toBe(
      'This rota is closed on 2027-01-12.',
    );
    expect(refused({ rota: { calendar: calendar(MONDAYS, { archived: true }) } })).toEqual({
      field: 'rota',
      message: 'This rota is archived.',
    });
    expect(refused({ rota: { calendar: calendar(MONDAYS, { end_date: '2027-01-10' }) } })).toEqual({
      field: 'rota',
      message: 'This rota ended on 2027-01-10.',
    });
  });

  it('rule 2: given a shift outside one timeslot, or not covering it with require_full_timeslot, then `start_datetime`', () => {
    expect(refused({ shift: span('2027-01-11 09:30', '2027-01-11 10:30') })).toEqual({
      field: 'start_datetime',
      message: 'The shift must lie inside one timeslot.',
    });
    expect(refused({ rota: { requireFullTimeslot: true } })).toEqual({
      field: 'start_datetime',
      message: 'The shift must cover one timeslot exactly.',
    });
    expect(
      refused({ rota: { requireFullTimeslot: true }, shift: span('2027-01-11 09:00', '2027-01-11 10:00') }),
    ).toBeNull();
  });

  it("rule 3: given a user of another organisation, or one outside the rota's teams, then `user`", () => {
    expect(refused({ user: { inOrganisation: false }, caller: MANAGER })?.field).toBe('user');
    expect(refused({ user: { seesRota: false }, caller: MANAGER })).toEqual({
      field: 'user',
      message: "The user holds no role in this rota's team.",
    });
  });

  it('rule 4: given a user on hold, then `user`, unless ignore_on_hold comes from a manager or the worker', () => {
    const onHold = { user: { onHold: true } };
    expect(refused(onHold)).toEqual({ field: 'user', message: 'The user is on hold.' });
    expect(refused({ ...onHold, ignoreOnHold: true })?.field).toBe('user');
    expect(refused({ ...onHold, caller: MANAGER })?.field).toBe('user');
    expect(refused({ ...onHold, caller: MANAGER, ignoreOnHold: true })).toBeNull();
    expect(refused({ ...onHold, caller: SYSTEM, ignoreOnHold: true })).toBeNull();
  });

  it('rule 5: given a role-restricted rota, then the user needs an allowed profile unless a manager confirms the restriction', () => {
    const restricted = { rota: { restrictedByRole: true, roleProfileIds: [30, 31] } };
    expect(refused(restricted)).toEqual({
      field: 'user',
      message: 'The user holds no role this rota is restricted to.',
    });
    expect(refused({ ...restricted, user: { roleProfileIds: [20, 31] } })).toBeNull();
    expect(refused({ ...restricted, confirmRoleRestriction: true })?.field).toBe('user');
    expect(refused({ ...restricted, confirmRoleRestriction: true, caller: MANAGER })).toBeNull();
  });

  it('rule 6: given another shift of the user overlapping, on any rota, then `start_datetime`; one touching it is fine', () => {
    const elsewhere = { ...booked(9, '2027-01-11 09:20', '2027-01-11 11:00'), rotaId: 2 };
    expect(refused({ userShifts: [elsewhere], caller: MANAGER })).toEqual({
      field: 'start_datetime',
      message: 'The user already has a shift at that time.',
    });
    expect(
      refused({
        userShifts: [
          booked(9, '2027-01-11 09:30', '2027-01-11 10:00'),
          booked(10, '2027-01-11 08:00', '2027-01-11 09:00'),
        ],
      }),
    ).toBeNull();
  });

  it("given a shift breaking rules 2 and 6, then it names rule 2's message; given rules 1 and 3, then `rota`", () => {
    const shift = span('2027-01-11 08:30', '2027-01-11 09:30');
    expect(refused({ shift, userShifts: [booked(9, '2027-01-11 09:00', '2027-01-11 09:30')] })?.message).toBe(
      'The shift must lie inside one timeslot.',
    );
    expect(
      refused({ rota: { calendar: calendar(MONDAYS, { archived: true }) }, user: { inOrganisation: false } })?.field,
    ).toBe('rota');
  });

  it('rule 7: given a max-1 timeslot 09:00–10:00, then 09:00–09:30 and 09:30–10:00 both fit; a third overlapping one is full', () => {
    const first = booked(9, '2027-01-11 09:00', '2027-01-11 09:30');
    expect(refused({ shift: span('2027-01-11 09:30', '2027-01-11 10:00'), rotaDayShifts: [first] })).toBeNull();
    const both = [first, booked(10, '2027-01-11 09:30', '2027-01-11 10:00')];
    expect(refused({ shift: span('2027-01-11 09:15', '2027-01-11 09:20'), rotaDayShifts: both })).toEqual({
      field: 'start_datetime',
      message: 'The timeslot is full.',
    });
  });

  it(
    'rule 7: given a full timeslot, then a manager books beyond max; given one a manager overfilled ' +
      '10:00–11:00, then a volunteer still fits 11:00–12:00',
    () => {
      expect(
        refused({
          rotaDayShifts: [booked(9, '2027-01-11 09:00', '2027-01-11 10:00')],
          user: { id: 8 },
          caller: MANAGER,
        }),
      ).toBeNull();
      const overfilled = [1, 2, 3].map((id) => booked(id, '2027-01-11 10:00', '2027-01-11 11:00'));
      expect(refused({ shift: span('2027-01-11 11:00', '2027-01-11 12:00'), rotaDayShifts: overfilled })).toBeNull();
      expect(refused({ shift: span('2027-01-11 10:30', '2027-01-11 12:00'), rotaDayShifts: overfilled })?.message).toBe(
        'The timeslot is full.',
      );
    },
  );

  it('rule 7: given the overnight timeslot 22:00–06:00 at max 1 with 23:00–01:00 booked, then 22:00–23:00 fits and 22:30–06:00 is full', () => {
    const night = [booked(9, '2027-01-11 23:00', '2027-01-12 01:00')];
    expect(refused({ shift: span('2027-01-11 22:00', '2027-01-11 23:00'), rotaDayShifts: night })).toBeNull();
    expect(refused({ shift: span('2027-01-11 22:30', '2027-01-12 06:00'), rotaDayShifts: night })?.message).toBe(
      'The timeslot is full.',
    );
  });

  it("rule 8: given a volunteer's own shift that has started (or starts now), then `start_datetime`; a manager may book it", () => {
    const now = at('2027-01-11 09:00');
    expect(refused({ now })).toEqual({ field: 'start_datetime', message: 'The shift has started.' });
    expect(refused({ now: at('2027-01-11 09:10') })?.message).toBe('The shift has started.');
    expect(refused({ now, user: { id: 8 }, caller: MANAGER })).toBeNull();
  });

  it('rule 8: given a shift later today, then only with allow_same_day_add; a manager always; tomorrow always', () => {
    const now = at('2027-01-11 08:00');
    expect(refused({ now })).toEqual({
      field: 'start_datetime',
      message: "Shifts on today's date cannot be added on this rota.",
    });
    expect(refused({ now, rota: { allowSameDayAdd: true } })).toBeNull();
    expect(refused({ now, user: { id: 1 }, caller: MANAGER })).toBeNull();
    expect(refused({ now: at('2027-01-10 23:59') })).toBeNull();
  });

  it('rule 8: given an overnight shift tonight, then never for a volunteer, whatever the flag; a manager may', () => {
    const shift = { date: '2027-01-11', start: at('2027-01-11 22:00'), end: at('2027-01-12 02:00') };
    const now = at('2027-01-11 08:00');
    expect(refused({ shift, now, rota: { allowSameDayAdd: true } })).toEqual({
      field: 'start_datetime',
      message: 'Overnight shifts cannot be added on the date they start.',
    });
    expect(refused({ shift, now, caller: { ...MANAGER, userId: 7 } })).toBeNull();
  });

  it(
    'rule 8: given Pacific/Auckland and now 2027-01-10T23:30Z, then today there is 2027-01-11: a shift ' +
      "that afternoon is same-day, the next day's is not",
    () => {
      const auckland = {
        zone: 'Pacific/Auckland',
        calendar: calendar([
          slot(1, 'monday', '09:00', 'monday', '17:00', 5),
          slot(2, 'tuesday', '09:00', 'tuesday', '17:00', 5),
        ]),
      };
      const now = Date.parse('2027-01-10T23:30Z');
      // 14:00–15:00 NZDT (UTC+13) on each date.
      const monday = {
        date: '2027-01-11',
        start: Date.parse('2027-01-11T01:00Z'),
        end: Date.parse('2027-01-11T02:00Z'),
      };
      const tuesday = {
        date: '2027-01-12',
        start: Date.parse('2027-01-12T01:00Z'),
        end: Date.parse('2027-01-12T02:00Z'),
      };
      expect(refused({ rota: auckland, shift: monday, now })?.message).toBe(
        "Shifts on today's date cannot be added on this rota.",
      );
      expect(refused({ rota: auckland, shift: tuesday, now })).toBeNull();
    },
  );

  it('rule 8: given an edit moving a shift from later today to next week, then its current date counts: refused without allow_same_day_edit', () => {
    const edit = {
      action: 'edit' as const,
      now: at('2027-01-11 08:00'),
      current: span('2027-01-11 10:00', '2027-01-11 11:00'),
      shift: span('2027-01-18 09:00', '2027-01-18 09:30'),
    };
    expect(refused(edit)).toEqual({
      field: 'start_datetime',
      message: "Shifts on today's date cannot be edited on this rota.",
    });
    expect(refused({ ...edit, rota: { allowSameDayEdit: true } })).toBeNull();
    expect(refused({ ...edit, rota: { allowSameDayAdd: true } })?.field).toBe('start_datetime');
    expect(refused({ ...edit, current: span('2027-01-11 07:00', '2027-01-11 08:30') })?.message).toBe(
      'The shift has started.',
    );
  });
});

describe('checkBooking', () => {
  it('given a bulk item breaking a rule, then a 422 keyed with its prefix; given a forbidden caller, then the 403 first', () => {
    let thrown: unknown;
    try {
      checkBooking(given({ user: { onHold: true } }), 'shifts.3.');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).errors).toEqual({ 'shifts.3.user': ['The user is on hold.'] });
    expect(() => checkBooking(given({ user: { onHold: true }, rota: { selfManage: false } }))).toThrow(ForbiddenError);
    expect(() => checkBooking(given())).not.toThrow();
  });
});

describe('cancelRefusal / checkCancel', () => {
  const today = {
    action: 'cancel' as const,
    now: at('2027-01-11 08:00'),
    shift: span('2027-01-11 10:00', '2027-01-11 11:00'),
  };

  it('given a volunteer cancelling their shift later today, then only with allow_same_day_cancel; a manager always', () => {
    expect(cancelRefusal(given(today))).toEqual({
      field: 'start_datetime',
      message: "Shifts on today's date cannot be cancelled on this rota.",
    });
    expect(cancelRefusal(given({ ...today, rota: { allowSameDayCancel: true } }))).toBeNull();
    expect(cancelRefusal(given({ ...today, user: { id: 8 }, caller: MANAGER }))).toBeNull();
    expect(cancelRefusal(given({ ...today, now: at('2027-01-10 12:00') }))).toBeNull();
  });

  it('given an overnight shift tonight or a started one, then a volunteer cannot cancel it, whatever the flag', () => {
    const overnight = { date: '2027-01-11', start: at('2027-01-11 22:00'), end: at('2027-01-12 06:00') };
    expect(cancelRefusal(given({ ...today, shift: overnight, rota: { allowSameDayCancel: true } }))?.message).toBe(
      'Overnight shifts cannot be cancelled on the date they start.',
    );
    expect(
      cancelRefusal(given({ ...today, now: at('2027-01-11 10:30'), rota: { allowSameDayCancel: true } }))?.message,
    ).toBe('The shift has started.');
  });

  it("given a volunteer cancelling another user's shift, then forbidden; given a refused own cancel, then a 422", () => {
    expect(() => checkCancel(given({ ...today, user: { id: 8 } }))).toThrow(ForbiddenError);
    expect(() => checkCancel(given(today))).toThrow(ValidationError);
  });
});

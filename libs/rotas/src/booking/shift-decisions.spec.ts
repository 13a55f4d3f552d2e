import { describe, expect, it } from '@jest/globals';
import type { StreamEvents } from '#app/event-store';
import { ForbiddenError, testDecider, ValidationError } from '#app/platform';
import type { BookedSpan } from '../domain/booking-rules.js';
import type { RotaCalendar } from '../domain/rota-calendar.js';
import type { RotaTimeslot, Weekday } from '../domain/weekly-timeslots.js';
import { type RepeatingShiftEvent, type ShiftEvent, type ShiftTimesData, streamOf } from '../rotas.events.js';
import type { CallerReach } from '../rotas.policy.js';
import type { Booker, RotaForBooking } from './booking-facts.js';
import { type BookingContext, type BookingItem, decideBookShifts, type SeriesRequest } from './shift-decisions.js';

// January in London: the wall clock is UTC. 2027-01-11 is a Monday; "now" is the Monday before.
const NOW = Date.parse('2027-01-04T12:00:00Z');
const times = (start: string, end: string): ShiftTimesData => ({
  date: start.slice(0, 10),
  start: new Date(`${start.replace(' ', 'T')}Z`).toISOString(),
  end: new Date(`${end.replace(' ', 'T')}Z`).toISOString(),
  startWall: start,
  endWall: end,
});
const slot = (id: number, day: Weekday, start: string, dayEnd: Weekday, end: string, max: number): RotaTimeslot => ({
  id,
  weekday_start: day,
  start_time: start,
  weekday_end: dayEnd,
  end_time: end,
  min: 0,
  ideal: 1,
  max,
});
const calendar = (more: Partial<RotaCalendar> = {}): RotaCalendar => ({
  start_date: '2027-01-01',
  end_date: null,
  archived: false,
  closed_dates: new Set(),
  timeline: [
    {
      from: '2027-01-01',
      to: null,
      timeslots: [
        slot(1, 'monday', '09:00', 'monday', '10:00', 1),
        slot(2, 'monday', '10:00', 'monday', '12:00', 2),
        slot(3, 'monday', '22:00', 'tuesday', '06:00', 1),
      ],
    },
  ],
  ...more,
});
const rota = (id: number, teamId: number, more: Partial<RotaForBooking> = {}): RotaForBooking => ({
  id,
  teamId,
  name: `Rota ${id}`,
  calendar: calendar(),
  zone: 'Europe/London',
  selfManage: true,
  requireFullTimeslot: false,
  restrictedByRole: false,
  roleProfileIds: [],
  allowSameDayAdd: false,
  allowSameDayEdit: false,
  allowSameDayCancel: false,
  ...more,
});
// Rota 3 (team 4) is self-managed; rota 5 (team 6) is not.
const ROTAS = new Map([
  [3, rota(3, 4)],
  [5, rota(5, 6, { selfManage: false })],
]);
const booker = (): Booker => ({ onHold: false, roleProfileIds: new Set([20]), seen: new Set([4, 6]) });
const BOOKERS = new Map([
  [7, booker()],
  [8, booker()],
]);
const reach = (userId: number, more: Partial<CallerReach> = {}): CallerReach => ({
  userId,
  seen: new Set([4, 6]),
  manages: new Set(),
  addsShifts: new Set(),
  onHold: false,
  ...more,
});
const VOLUNTEER = reach(7);
const MANAGER = reach(1, { manages: new Set([4, 6]) });

const context = (more: Partial<BookingContext> = {}): BookingContext => ({
  organisationId: 1,
  rotas: ROTAS,
  bookers: BOOKERS,
  reach: VOLUNTEER,
  userShifts: [],
  rotaDays: new Map(),
  now: NOW,
  ...more,
});
const item = (shiftId: number, start: string, end: string, more: Partial<BookingItem> = {}): BookingItem => ({
  shiftId,
  userId: 7,
  rotaId: 3,
  times: times(start, end),
  ignoreOnHold: false,
  confirmRoleRestriction: false,
  series: null,
  prefix: '',
  ...more,
});
/** A bulk body: each item's errors keyed `shifts.<index>.`. */
const bulk = (...items: BookingItem[]) => items.map((it, i) => ({ ...it, prefix: `shifts.${i}.` }));
const span = (id: number, userId: number, rotaId: number, start: string, end: string): BookedSpan => ({
  id,
  userId,
  rotaId,
  date: start.slice(0, 10),
  start: Date.parse(`${start.replace(' ', 'T')}Z`),
  end: Date.parse(`${end.replace(' ', 'T')}Z`),
});

/** What the decision appends for a booked shift (rota 3, team 4, organisation 1). */
const shiftBooked = (
  id: number,
  userId: number,
  start: string,
  end: string,
  seriesId: number | null = null,
): StreamEvents => ({
  streamId: streamOf.shift(id),
  events: [
    {
      type: 'rotas.ShiftBooked',
      data: { id, organisationId: 1, rotaId: 3, teamId: 4, userId, seriesId, ...times(start, end) },
    } satisfies ShiftEvent,
  ],
});

// decideBookShifts reads no stream: the decider's state is always null.
const book = testDecider({
  evolve: () => null,
  decide: (_: null, items: readonly BookingItem[], ctx: BookingContext) => decideBookShifts(items, ctx),
});

describe('decideBookShifts: one shift', () => {
  it("given a volunteer booking their own shift on a self-managed rota, then one ShiftBooked on the shift's stream", () => {
    book
      .given([])
      .when([item(100, '2027-01-11 09:00', '2027-01-11 09:30')], context())
      .then([
        {
          streamId: 'rotas.Shift-100',
          events: [
            {
              type: 'rotas.ShiftBooked',
              data: {
                id: 100,
                organisationId: 1,
                rotaId: 3,
                teamId: 4,
                userId: 7,
                seriesId: null,
                date: '2027-01-11',
                start: '2027-01-11T09:00:00.000Z',
                end: '2027-01-11T09:30:00.000Z',
                startWall: '2027-01-11 09:00',
                endWall: '2027-01-11 09:30',
              },
            },
          ],
        },
      ]);
  });

  it("given a volunteer booking on a rota that is not self-managed, or another user's shift, then 403", () => {
    book
      .given([])
      .when([item(100, '2027-01-11 09:00', '2027-01-11 09:30', { rotaId: 5 })], context())
      .thenThrows(ForbiddenError, /not self-managed/);
    book
      .given([])
      .when([item(100, '2027-01-11 09:00', '2027-01-11 09:30', { userId: 8 })], context())
      .thenThrows(ForbiddenError, "Only a manager of this rota may act on another user's shifts.");
    book
      .given([])
      .when([item(100, '2027-01-11 09:00', '2027-01-11 09:30')], context({ reach: reach(7, { seen: new Set() }) }))
      .thenThrows(ForbiddenError, 'You cannot see this rota.');
  });
});

describe('decideBookShifts: a series', () => {
  const series = (more: Partial<SeriesRequest> = {}): SeriesRequest => ({
    id: 20,
    frequency: 2,
    weekdays: ['mon'],
    endDate: '2027-03-01',
    until: '2027-07-11',
    ...more,
  });
  const started = (more: Partial<Extract<RepeatingShiftEvent, { type: 'rotas.RepeatingShiftStarted' }>['data']>) => ({
    streamId: streamOf.series(20),
    events: [
      {
        type: 'rotas.RepeatingShiftStarted',
        data: {
          id: 20,
          organisationId: 1,
          userId: 7,
          rotaId: 3,
          teamId: 4,
          frequency: 2,
          weekdays: ['mon'],
          startDate: '2027-01-11',
          endDate: '2027-03-01',
          startTime: '22:00',
          endTime: '02:00',
          dayOffset: 1,
          firstShiftId: 100,
          ignoreOnHold: false,
          confirmRoleRestriction: false,
          until: '2027-03-01',
          ...more,
        },
      } satisfies RepeatingShiftEvent,
    ],
  });

  it(
    'given an overnight item 22:00–02:00 with a series ending before its horizon, then ShiftBooked in the series ' +
      'and RepeatingShiftStarted on the series stream (wall times, dayOffset 1, until = end_date)',
    () => {
      book
        .given([])
        .when([item(100, '2027-01-11 22:00', '2027-01-12 02:00', { series: series() })], context())
        .then([shiftBooked(100, 7, '2027-01-11 22:00', '2027-01-12 02:00', 20), started({})]);
    },
  );

  it('given a series without end_date, or ending after its horizon, then until is the horizon; a same-day shift has dayOffset 0', () => {
    const day = { startTime: '10:00', endTime: '11:30', dayOffset: 0 };
    book
      .given([])
      .when([item(100, '2027-01-11 10:00', '2027-01-11 11:30', { series: series({ endDate: null }) })], context())
      .then([
        shiftBooked(100, 7, '2027-01-11 10:00', '2027-01-11 11:30', 20),
        started({ ...day, endDate: null, until: '2027-07-11' }),
      ]);
    book
      .given([])
      .when(
        [item(100, '2027-01-11 10:00', '2027-01-11 11:30', { series: series({ endDate: '2027-12-31' }) })],
        context(),
      )
      .then([
        shiftBooked(100, 7, '2027-01-11 10:00', '2027-01-11 11:30', 20),
        started({ ...day, endDate: '2027-12-31', until: '2027-07-11' }),
      ]);
  });

  it("given a manager's series for another user with the overrides, then the series carries them and the user", () => {
    book
      .given([])
      .when(
        [
          item(100, '2027-01-11 22:00', '2027-01-12 02:00', {
            userId: 8,
            ignoreOnHold: true,
            confirmRoleRestriction: true,
            series: series(),
          }),
        ],
        context({ reach: MANAGER }),
      )
      .then([
        shiftBooked(100, 8, '2027-01-11 22:00', '2027-01-12 02:00', 20),
        started({ userId: 8, ignoreOnHold: true, confirmRoleRestriction: true }),
      ]);
  });
});

describe('decideBookShifts: a bulk', () => {
  it('given several fitting items, then a ShiftBooked each, in the order of the items', () => {
    book
      .given([])
      .when(
        bulk(item(100, '2027-01-11 09:00', '2027-01-11 09:30'), item(101, '2027-01-11 10:00', '2027-01-11 11:00')),
        context(),
      )
      .then([
        shiftBooked(100, 7, '2027-01-11 09:00', '2027-01-11 09:30'),
        shiftBooked(101, 7, '2027-01-11 10:00', '2027-01-11 11:00'),
      ]);
  });

  it("given item 0 breaking a rule and item 1 another user's shift (or a rota not self-managed), then the 403, whatever their order", () => {
    const outside = item(100, '2027-01-11 09:30', '2027-01-11 10:30'); // rule 2
    const other = item(101, '2027-01-11 10:00', '2027-01-11 11:00', { userId: 8 });
    const notSelfManaged = item(102, '2027-01-11 10:00', '2027-01-11 11:00', { rotaId: 5 });
    const anotherUsers = "Only a manager of this rota may act on another user's shifts.";
    book.given([]).when(bulk(outside, other), context()).thenThrows(ForbiddenError, anotherUsers);
    book.given([]).when(bulk(other, outside), context()).thenThrows(ForbiddenError, anotherUsers);
    book
      .given([])
      .when(bulk(outside, notSelfManaged), context())
      .thenThrows(ForbiddenError, /not self-managed/);
    book
      .given([])
      .when(bulk(outside), context())
      .thenThrows(ValidationError, { 'shifts.0.start_datetime': ['The shift must lie inside one timeslot.'] });
  });

  it('rule 6: given two overlapping items of one user, then the second refused, keyed shifts.1.; touching items both book', () => {
    const overlapping = bulk(
      item(100, '2027-01-11 10:00', '2027-01-11 11:00'),
      item(101, '2027-01-11 10:30', '2027-01-11 11:30'),
    );
    const refusal = { 'shifts.1.start_datetime': ['The user already has a shift at that time.'] };
    book.given([]).when(overlapping, context()).thenThrows(ValidationError, refusal);
    // A manager is bound by rule 6 as well.
    const forEight = overlapping.map((it) => ({ ...it, userId: 8 }));
    book
      .given([])
      .when(forEight, context({ reach: MANAGER }))
      .thenThrows(ValidationError, refusal);
    // Two users may overlap; one user's touching shifts do not.
    book
      .given([])
      .when([overlapping[0]!, forEight[1]!], context({ reach: MANAGER }))
      .then([
        shiftBooked(100, 7, '2027-01-11 10:00', '2027-01-11 11:00'),
        shiftBooked(101, 8, '2027-01-11 10:30', '2027-01-11 11:30'),
      ]);
    book
      .given([])
      .when(
        bulk(item(100, '2027-01-11 10:00', '2027-01-11 11:00'), item(101, '2027-01-11 11:00', '2027-01-11 12:00')),
        context(),
      )
      .then([
        shiftBooked(100, 7, '2027-01-11 10:00', '2027-01-11 11:00'),
        shiftBooked(101, 7, '2027-01-11 11:00', '2027-01-11 12:00'),
      ]);
  });

  it(
    'rule 7: given a volunteer whose two items would fill the max-1 timeslot twice over, then the second refused ' +
      "keyed shifts.1.start_datetime, by rule 6's message (their own items can only crowd a timeslot by overlapping)",
    () => {
      book
        .given([])
        .when(
          bulk(item(100, '2027-01-11 09:00', '2027-01-11 09:30'), item(101, '2027-01-11 09:15', '2027-01-11 09:45')),
          context(),
        )
        .thenThrows(ValidationError, { 'shifts.1.start_datetime': ['The user already has a shift at that time.'] });
    },
  );

  it('rule 7: given a bulk whose item 1 lands in a timeslot another booking fills, then `shifts.1.start_datetime`: full', () => {
    const full = new Map([['3 2027-01-11', [span(50, 8, 3, '2027-01-11 09:00', '2027-01-11 10:00')]]]);
    book
      .given([])
      .when(
        bulk(item(100, '2027-01-11 10:00', '2027-01-11 11:00'), item(101, '2027-01-11 09:30', '2027-01-11 10:00')),
        context({ rotaDays: full }),
      )
      .thenThrows(ValidationError, { 'shifts.1.start_datetime': ['The timeslot is full.'] });
  });

  it('rule 7: given a manager filling the max-1 timeslot with two users in one request, then both book', () => {
    book
      .given([])
      .when(
        bulk(
          item(100, '2027-01-11 09:00', '2027-01-11 10:00'),
          item(101, '2027-01-11 09:00', '2027-01-11 10:00', { userId: 8 }),
        ),
        context({ reach: MANAGER }),
      )
      .then([
        shiftBooked(100, 7, '2027-01-11 09:00', '2027-01-11 10:00'),
        shiftBooked(101, 8, '2027-01-11 09:00', '2027-01-11 10:00'),
      ]);
  });

  it("given a successful bulk, then the context's booked shifts are left as they were", () => {
    const userShifts = [span(50, 7, 9, '2027-01-11 12:00', '2027-01-11 13:00')];
    const rotaDays = new Map([['3 2027-01-11', [span(51, 8, 3, '2027-01-11 10:00', '2027-01-11 11:00')]]]);
    decideBookShifts(
      bulk(item(100, '2027-01-11 09:00', '2027-01-11 09:30'), item(101, '2027-01-11 10:00', '2027-01-11 11:00')),
      context({ userShifts, rotaDays }),
    );
    expect(userShifts.map((s) => s.id)).toEqual([50]);
    expect([...rotaDays.keys()]).toEqual(['3 2027-01-11']);
    expect(rotaDays.get('3 2027-01-11')!.map((s) => s.id)).toEqual([51]);
  });
});

describe('decideBookShifts: clashes with booked shifts', () => {
  it("rule 6: given the user's booked shift overlapping on any rota (context.userShifts), then 422 naming start_datetime", () => {
    const elsewhere = [span(50, 7, 9, '2027-01-11 10:30', '2027-01-11 11:30')];
    book
      .given([])
      .when([item(100, '2027-01-11 10:00', '2027-01-11 11:00')], context({ userShifts: elsewhere }))
      .thenThrows(ValidationError, { start_datetime: ['The user already has a shift at that time.'] });
  });

  it("given another user's overlapping shift in context.userShifts, then it is not the booker's clash", () => {
    const others = [span(50, 8, 9, '2027-01-11 10:30', '2027-01-11 11:30')];
    book
      .given([])
      .when([item(100, '2027-01-11 10:00', '2027-01-11 11:00')], context({ userShifts: others }))
      .then([shiftBooked(100, 7, '2027-01-11 10:00', '2027-01-11 11:00')]);
  });

  it('rule 7: given the max-1 timeslot booked on that rota-day (context.rotaDays), then a volunteer gets 422 naming start_datetime', () => {
    const full = new Map([['3 2027-01-11', [span(50, 8, 3, '2027-01-11 09:00', '2027-01-11 10:00')]]]);
    book
      .given([])
      .when([item(100, '2027-01-11 09:00', '2027-01-11 09:30')], context({ rotaDays: full }))
      .thenThrows(ValidationError, { start_datetime: ['The timeslot is full.'] });
    // Another rota-day's bookings do not count.
    const otherDay = new Map([['3 2027-01-18', full.get('3 2027-01-11')!]]);
    book
      .given([])
      .when([item(100, '2027-01-11 09:00', '2027-01-11 09:30')], context({ rotaDays: otherDay }))
      .then([shiftBooked(100, 7, '2027-01-11 09:00', '2027-01-11 09:30')]);
  });
});

describe('decideBookShifts: managers and the worker', () => {
  const full = new Map([['3 2027-01-11', [span(50, 8, 3, '2027-01-11 09:00', '2027-01-11 10:00')]]]);

  it('given a manager (manage-rotas or add-user-shifts over the team), then they may book beyond max, for anyone', () => {
    for (const manager of [MANAGER, reach(1, { addsShifts: new Set([4]) })])
      book
        .given([])
        .when(
          [item(100, '2027-01-11 09:00', '2027-01-11 09:30', { userId: 8 })],
          context({ reach: manager, rotaDays: full }),
        )
        .then([shiftBooked(100, 8, '2027-01-11 09:00', '2027-01-11 09:30')]);
  });

  it('given a manager of another team only, then a volunteer on this rota: bound by max', () => {
    book
      .given([])
      .when(
        [item(100, '2027-01-11 09:00', '2027-01-11 09:30')],
        context({ reach: reach(7, { manages: new Set([6]) }), rotaDays: full }),
      )
      .thenThrows(ValidationError, { start_datetime: ['The timeslot is full.'] });
  });

  it('given a system context, then it books as a manager: any user, a rota not self-managed, beyond max, a started shift', () => {
    const system = context({ system: true, reach: reach(9, { seen: new Set() }), rotaDays: full });
    book
      .given([])
      .when([item(100, '2027-01-11 09:00', '2027-01-11 09:30')], system)
      .then([shiftBooked(100, 7, '2027-01-11 09:00', '2027-01-11 09:30')]);
    book
      .given([])
      .when([item(100, '2027-01-11 09:00', '2027-01-11 09:30', { rotaId: 5, userId: 8 })], {
        ...system,
        now: Date.parse('2027-01-11T09:15:00Z'),
      })
      .then([
        {
          streamId: streamOf.shift(100),
          events: [
            {
              type: 'rotas.ShiftBooked',
              data: {
                id: 100,
                organisationId: 1,
                rotaId: 5,
                teamId: 6,
                userId: 8,
                seriesId: null,
                ...times('2027-01-11 09:00', '2027-01-11 09:30'),
              },
            },
          ],
        },
      ]);
  });

  it('given no reach, then the decision books as the worker does (bookingCaller treats a null reach as system)', () => {
    book
      .given([])
      .when(
        [item(100, '2027-01-11 09:00', '2027-01-11 09:30', { userId: 8 })],
        context({ reach: null, rotaDays: full }),
      )
      .then([shiftBooked(100, 8, '2027-01-11 09:00', '2027-01-11 09:30')]);
  });

  it('given a system context, then the user rules still hold: an unknown user, an overlap', () => {
    book
      .given([])
      .when([item(100, '2027-01-11 10:00', '2027-01-11 11:00', { userId: 99 })], context({ system: true }))
      .thenThrows(ValidationError, { user: ['The user is not in this organisation.'] });
    book
      .given([])
      .when(
        [item(100, '2027-01-11 10:00', '2027-01-11 11:00')],
        context({ system: true, userShifts: [span(50, 7, 9, '2027-01-11 10:30', '2027-01-11 11:30')] }),
      )
      .thenThrows(ValidationError, ['start_datetime']);
  });
});

describe('decideBookShifts: the user', () => {
  it('rule 3: given a manager booking a user not among the bookers, then 422 naming user (shifts.N.user in a bulk)', () => {
    book
      .given([])
      .when([item(100, '2027-01-11 10:00', '2027-01-11 11:00', { userId: 99 })], context({ reach: MANAGER }))
      .thenThrows(ValidationError, { user: ['The user is not in this organisation.'] });
    book
      .given([])
      .when(
        bulk(
          item(100, '2027-01-11 10:00', '2027-01-11 11:00'),
          item(101, '2027-01-11 10:00', '2027-01-11 11:00', { userId: 99 }),
        ),
        context({ reach: MANAGER }),
      )
      .thenThrows(ValidationError, { 'shifts.1.user': ['The user is not in this organisation.'] });
  });

  it("rule 3: given a booker who holds no role in the rota's team, then 422 naming user", () => {
    const bookers = new Map([[8, { ...booker(), seen: new Set([6]) }]]);
    book
      .given([])
      .when([item(100, '2027-01-11 10:00', '2027-01-11 11:00', { userId: 8 })], context({ reach: MANAGER, bookers }))
      .thenThrows(ValidationError, { user: ["The user holds no role in this rota's team."] });
  });

  it('rule 4: given an on-hold volunteer booking themselves, then 422 naming user (not 403), even with ignore_on_hold', () => {
    const bookers = new Map([[7, { ...booker(), onHold: true }]]);
    book
      .given([])
      .when([item(100, '2027-01-11 10:00', '2027-01-11 11:00', { ignoreOnHold: true })], context({ bookers }))
      .thenThrows(ValidationError, { user: ['The user is on hold.'] });
    book
      .given([])
      .when(
        [item(100, '2027-01-11 10:00', '2027-01-11 11:00', { ignoreOnHold: true })],
        context({ bookers, reach: MANAGER }),
      )
      .then([shiftBooked(100, 7, '2027-01-11 10:00', '2027-01-11 11:00')]);
  });
});

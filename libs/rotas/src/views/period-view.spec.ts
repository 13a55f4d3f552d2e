import { describe, expect, it } from '@jest/globals';
import type { TeamObject, UserBase } from '#app/identity';
import { wallClockToInstant, groupBy } from '#app/platform';
import { timeslotsBetween } from '../domain/rota-calendar.js';
import type { RotaTimeslot, Weekday } from '../domain/weekly-timeslots.js';
import type { CallerReach } from '../rotas.policy.js';
import { dayRota, MAX_ROTAS, rotaDayOf, type ViewContext, type ViewRota, type ViewShift } from './day-view.js';
import { MAX_DETAILED_SHIFTS, overShiftCap, type PeriodInput, periodView } from './period-view.js';

const ZONE = 'Europe/London';
const NOW = Date.parse('2027-06-01T08:00:00Z');
const ME = 1;
const team = (id: number, name: string): TeamObject => ({
  id: String(id),
  parent_id: null,
  name,
  description: '',
  geo_location: '',
  catchment_area_id: '',
  icon: '',
  show_on_public_site: false,
  ceiling_enabled: false,
  hidden: false,
  disabled: false,
});
let nextSlot = 100;
const slot = (
  weekday: Weekday,
  start_time: string,
  end_time: string,
  staffing = { min: 1, ideal: 2, max: 3 },
): RotaTimeslot => ({
  id: nextSlot++,
  weekday_start: weekday,
  start_time,
  weekday_end: weekday,
  end_time,
  ...staffing,
});
const WEEK: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** A rota with 09:00–11:00 every day (two hours), from `start`. */
const rotaOf = (id: number, more: Partial<ViewRota> = {}, start = '2027-01-01'): ViewRota => ({
  id,
  teamId: id,
  name: `Rota ${id}`,
  colour: '#1f77b4',
  team: team(id, `Team ${id}`),
  zone: ZONE,
  calendar: {
    start_date: start,
    end_date: null,
    archived: false,
    closed_dates: new Set(),
    timeline: [{ from: '2027-01-01', to: null, timeslots: WEEK.map((d) => slot(d, '09:00', '11:00')) }],
  },
  selfManage: true,
  requireFullTimeslot: false,
  restrictedByRole: false,
  roleProfileIds: [],
  allowSameDayAdd: false,
  allowSameDayCancel: false,
  allowSameDayEdit: false,
  ...more,
});
let nextShift = 1;
const shift = (rotaId: number, userId: number, date: string, from: string, to: string, endDate = date): ViewShift => ({
  id: nextShift++,
  rotaId,
  userId,
  seriesId: null,
  date,
  start: wallClockToInstant(date, from, ZONE).getTime(),
  end: wallClockToInstant(endDate, to, ZONE).getTime(),
  startWall: `${date} ${from}`,
  endWall: `${endDate} ${to}`,
});
const userBase = (id: number): UserBase => ({
  id,
  display_name: `user ${id}`,
  title: null,
  profile_photo_url: null,
  can_manage: false,
  role_name: null,
  team_name: null,
  status: { id: 'active', name: 'Active', contactable: true },
});
const reach: CallerReach = {
  userId: ME,
  seen: new Set([1, 2, 3]),
  manages: new Set([2]),
  addsShifts: new Set(),
  onHold: false,
};
const context = (over: Partial<ViewContext> = {}): ViewContext => ({
  zone: ZONE,
  now: NOW,
  reach,
  callerProfiles: [],
  userFlags: false,
  users: new Map([1, 2, 3].map((id) => [id, userBase(id)])),
  series: new Map(),
  withShifts: true,
  ...over,
});
const input = (over: Partial<PeriodInput> = {}): PeriodInput => ({
  from: '2027-06-14',
  to: '2027-06-16',
  detailed: false,
  rotas: [],
  shifts: [],
  truncated: false,
  dataReady: true,
  ...over,
});

describe('periodView: basic', () => {
  // Rota 1: 14th nobody (−2), 15th one (−1), 16th three (1). Rota 2: 14th two (0), closed on the 15th, 16th nobody (−2).
  const one = rotaOf(1);
  const two = rotaOf(2, { calendar: { ...rotaOf(2).calendar, closed_dates: new Set(['2027-06-15']) } });
  const shifts = [
    shift(1, 2, '2027-06-15', '09:00', '11:00'),
    ...[1, 2, 3].map((u) => shift(1, u, '2027-06-16', '09:00', '11:00')),
    ...[2, 3].map((u) => shift(2, u, '2027-06-14', '09:00', '11:00')),
  ].sort((a, b) => a.rotaId - b.rotaId || (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));

  it('given two rotas, then one Date entry a date with the lowest status of its open rota-days, and empty hours and timeslots', () => {
    const view = periodView(input({ rotas: [one, two], shifts }), context());
    expect(view.dates.map((d) => [d.date, d.status, d.below_minimum, d.closed])).toEqual([
      ['2027-06-14', -2, true, false],
      ['2027-06-15', -1, false, false],
      ['2027-06-16', -2, true, false],
    ]);
    expect(
      view.dates.every((d) => d.hours.length === 0 && d.shift_patterns.length === 0 && d.rotas === undefined),
    ).toBe(true);
    expect([view.start_date, view.end_date, view.max_rotas, view.truncated, view.data_ready]).toEqual([
      '2027-06-14',
      '2027-06-16',
      MAX_ROTAS,
      false,
      true,
    ]);
  });

  it('given every rota closed or inactive on a date, then that date is closed with status 0', () => {
    const later = rotaOf(3, {}, '2027-06-16');
    const view = periodView(input({ rotas: [two, later], shifts: shifts.filter((s) => s.rotaId === 2) }), context());
    expect(view.dates[1]).toEqual({
      date: '2027-06-15',
      below_minimum: false,
      status: 0,
      closed: true,
      own_shift: false,
      hours: [],
      shift_patterns: [],
    });
    // The 16th: rota 2 has nobody (−2), rota 3 starts with nobody too.
    expect([view.dates[2]!.closed, view.dates[2]!.status]).toEqual([false, -2]);
  });

  it('given no rotas, then every date is closed, status 0, and permissions all false', () => {
    const view = periodView(input(), context());
    expect(view.dates.map((d) => [d.closed, d.status])).toEqual([
      [true, 0],
      [true, 0],
      [true, 0],
    ]);
    expect(view.permissions.can_view_rota).toBe(false);
  });

  it('given user_flags, then own_shift marks the dates of the caller’s shifts; without it, never', () => {
    expect(
      periodView(input({ rotas: [one, two], shifts }), context({ userFlags: true })).dates.map((d) => d.own_shift),
    ).toEqual([false, false, true]);
    expect(periodView(input({ rotas: [one, two], shifts }), context()).dates.map((d) => d.own_shift)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('combines the returned rotas’ permissions, and passes truncated and data_ready through', () => {
    const view = periodView(input({ rotas: [one, two], truncated: true, dataReady: false }), context());
    expect([
      view.permissions.can_view_rota,
      view.permissions.can_override_rota,
      view.truncated,
      view.data_ready,
    ]).toEqual([true, true, true, false]);
  });

  it('given an overnight shift of the day before the range, then it counts on duty where it overlaps the first date’s timeslots', () => {
    const night = rotaOf(1, {
      calendar: {
        ...one.calendar,
        timeline: [
          {
            from: '2027-01-01',
            to: null,
            timeslots: [slot('sunday', '22:00', '23:59'), slot('monday', '00:30', '02:00')],
          },
        ],
      },
    });
    // The read model's query starts a day early; the 13th's shift (Sunday 23:00 → Monday 02:00) covers the 14th's 00:30–02:00.
    const late = shift(1, 2, '2027-06-13', '23:00', '02:00', '2027-06-14');
    const view = periodView(input({ rotas: [night], shifts: [late], detailed: true }), context());
    expect(view.dates[0]!.hours.map((h) => h.shift_count)).toEqual([1, 1]);
    expect(view.dates[0]!.rotas![0]!.shifts).toEqual([]);
  });
});

describe('periodView: detailed', () => {
  const one = rotaOf(1);
  const two = rotaOf(2, {}, '2027-06-15');
  const shifts = [
    shift(1, 2, '2027-06-14', '09:00', '10:30'),
    shift(1, ME, '2027-06-15', '09:00', '11:00'),
    shift(2, 3, '2027-06-15', '10:00', '11:00'),
  ];

  it('given two rotas, then each date carries the Day-view rota records of the rotas active that date, as the day view builds them', () => {
    const ctx = context();
    const view = periodView(input({ rotas: [one, two], shifts, detailed: true }), ctx);
    expect(view.dates.map((d) => d.rotas!.map((r) => r.id))).toEqual([[1], [1, 2], [1, 2]]);
    for (const [i, rota] of [one, two].entries()) {
      const range = {
        shifts: groupBy(
          shifts.filter((s) => s.rotaId === rota.id),
          (s) => s.date,
        ),
        occurrences: groupBy(timeslotsBetween(rota.calendar, '2027-06-15', '2027-06-15', ZONE), (o) => o.date),
      };
      expect(view.dates[1]!.rotas![i]).toEqual(dayRota(rotaDayOf(rota, range, '2027-06-15', '2027-06-14'), ctx).view);
    }
  });

  it('lists every rota’s hours and timeslots on the Date entry, each with its rota_id, rota by rota', () => {
    const view = periodView(input({ rotas: [one, two], shifts, detailed: true }), context());
    const d = view.dates[1]!;
    expect(d.hours.map((h) => [h.rota_id, h.start_time, h.shift_count, h.status])).toEqual([
      [1, '2027-06-15 09:00:00', 1, -1],
      [1, '2027-06-15 10:00:00', 1, -1],
      [2, '2027-06-15 09:00:00', 0, -2],
      [2, '2027-06-15 10:00:00', 1, -1],
    ]);
    expect(d.shift_patterns.map((p) => [p.rota_id, p.start_time, p.end_time])).toEqual([
      [1, '09:00:00', '11:00:00'],
      [2, '09:00:00', '11:00:00'],
    ]);
    expect(d.shift_patterns[0]).not.toHaveProperty('pattern_status');
    // The 14th: only rota 1, 09:00–10:30 covers its first hour and half the second.
    expect(view.dates[0]!.hours.map((h) => h.shift_count)).toEqual([1, 0]);
    expect([d.status, view.dates[0]!.status]).toEqual([-2, -2]);
  });

  it('given withShifts false (past the cap), then every shift array is empty while the statuses stay', () => {
    const full = periodView(input({ rotas: [one, two], shifts, detailed: true }), context());
    const capped = periodView(
      input({ rotas: [one, two], shifts, detailed: true, truncated: true }),
      context({ withShifts: false }),
    );
    expect(capped.dates.flatMap((d) => d.rotas!.flatMap((r) => [...r.shifts, ...r.own_shifts]))).toEqual([]);
    expect(capped.dates.map((d) => d.hours)).toEqual(full.dates.map((d) => d.hours));
    expect(capped.truncated).toBe(true);
  });
});

describe('overShiftCap', () => {
  const many = (n: number, date: string) => Array.from({ length: n }, () => ({ date }) as ViewShift);
  it(`given ${MAX_DETAILED_SHIFTS} shifts in the range, then not over; one more, over`, () => {
    expect(overShiftCap(many(MAX_DETAILED_SHIFTS, '2027-06-14'), '2027-06-14')).toBe(false);
    expect(overShiftCap(many(MAX_DETAILED_SHIFTS + 1, '2027-06-14'), '2027-06-14')).toBe(true);
  });
  it('given shifts of the day before the range (read for coverage only), then they do not count', () => {
    expect(overShiftCap([...many(5, '2027-06-13'), ...many(MAX_DETAILED_SHIFTS, '2027-06-14')], '2027-06-14')).toBe(
      false,
    );
  });
});

describe('periodView: the basic answer’s status-only path', () => {
  // Overnight 22:00–04:00 and a day timeslot 00:00–04:00 on both clock-change nights, shifts ending
  // mid-hour, crossing midnight and over the maximum: the basic statuses (dayStatus) are those the
  // detailed answer computes from its hours (dayCoverage), date by date.
  const night = (weekday: Weekday): RotaTimeslot => ({
    ...slot(weekday, '22:00', '04:00', { min: 1, ideal: 2, max: 2 }),
    weekday_end: WEEK[(WEEK.indexOf(weekday) + 1) % 7]!,
  });
  const rota = rotaOf(1, {
    calendar: {
      start_date: '2027-01-01',
      end_date: null,
      archived: false,
      closed_dates: new Set(),
      timeline: [
        { from: '2027-01-01', to: null, timeslots: WEEK.flatMap((d) => [slot(d, '00:00', '04:00'), night(d)]) },
      ],
    },
  });
  const around = (from: string, to: string, extra: ViewShift[]) => {
    const view = (detailed: boolean) =>
      periodView(input({ from, to, detailed, rotas: [rota], shifts: extra }), context());
    return [view(false), view(true)].map((v) => v.dates.map((d) => [d.date, d.status, d.closed, d.below_minimum]));
  };

  it.each([
    ['spring', '2027-03-27', '2027-03-29'],
    ['autumn', '2027-10-30', '2027-11-01'],
  ])('given the %s change, then basic and detailed agree on every date', (_, from, to) => {
    const [d0, d1, after] =
      to === '2027-03-29' ? [from, '2027-03-28', '2027-03-30'] : [from, '2027-10-31', '2027-11-02'];
    const shifts = [
      shift(1, 1, d0, '22:00', '04:00', d1),
      shift(1, 2, d0, '22:00', '03:30', d1),
      shift(1, 3, d0, '23:00', '04:00', d1),
      shift(1, 1, d1, '00:00', '02:30'),
      ...[1, 2, 3].map((u) => shift(1, u, to, '00:00', '04:00')),
      ...[1, 2, 3].map((u) => shift(1, u, to, '22:00', '04:00', after)),
    ].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.start - b.start || a.id - b.id));
    const [basic, detailed] = around(from, to, shifts);
    expect(basic).toEqual(detailed);
    expect(detailed!.map((d) => d[1])).toEqual([-2, -2, 1]);
  });
});

import { describe, expect, it } from '@jest/globals';
import type { TeamObject, UserBase } from '#app/identity';
import { wallClockToInstant, groupBy } from '#app/platform';
import { timeslotsBetween, timeslotsOn } from '../domain/rota-calendar.js';
import type { Timeline } from '../domain/timeslot-timeline.js';
import type { RotaTimeslot, Weekday } from '../domain/weekly-timeslots.js';
import type { RepeatingShiftObject } from '../booking/repeating-shift.queries.js';
import type { CallerReach } from '../rotas.policy.js';
import {
  dayRota,
  dayView,
  MAX_ROTAS,
  type RotaDay,
  rotaDayOf,
  shiftPermissions,
  type ViewContext,
  type ViewRota,
  type ViewShift,
} from './day-view.js';

const ZONE = 'Europe/London';
/** A Wednesday, well after NOW. */
const DAY = '2027-06-16';
const NOW = Date.parse('2027-06-10T08:00:00Z');
const [ME, OTHER, THIRD] = [1, 2, 3];
const TEAM = 7;

const team: TeamObject = {
  id: String(TEAM),
  parent_id: null,
  name: 'Shop',
  description: '',
  geo_location: '',
  catchment_area_id: '',
  icon: '',
  show_on_public_site: false,
  ceiling_enabled: false,
  hidden: false,
  disabled: false,
};
let nextSlot = 100;
const slot = (
  weekday_start: Weekday,
  start_time: string,
  weekday_end: Weekday,
  end_time: string,
  staffing = { min: 1, ideal: 2, max: 3 },
): RotaTimeslot => ({
  id: nextSlot++,
  weekday_start,
  start_time,
  weekday_end,
  end_time,
  ...staffing,
});
const rotaOf = (timeline: Timeline, more: Partial<ViewRota> = {}): ViewRota => ({
  id: 11,
  teamId: TEAM,
  name: 'Shop',
  colour: '#1f77b4',
  team,
  zone: ZONE,
  calendar: { start_date: '2027-01-01', end_date: null, archived: false, closed_dates: new Set(), timeline },
  selfManage: true,
  requireFullTimeslot: false,
  restrictedByRole: false,
  roleProfileIds: [],
  allowSameDayAdd: true,
  allowSameDayCancel: true,
  allowSameDayEdit: true,
  ...more,
});
/** Wednesdays 09:00–14:00, min 1 / ideal 2 / max 3: five hours. */
const wednesday = slot('wednesday', '09:00', 'wednesday', '14:00');
const rota = rotaOf([{ from: '2027-01-01', to: null, timeslots: [wednesday] }]);

let nextShift = 1000;
const wall = (date: string, time: string) => wallClockToInstant(date, time, ZONE).getTime();
/** A booked shift as the read model gives it; `endDate` for one that ends on a later date. */
const shift = (
  userId: number,
  date: string,
  from: string,
  to: string,
  more: Partial<ViewShift> & { endDate?: string } = {},
): ViewShift => {
  const endDate = more.endDate ?? date;
  return {
    id: nextShift++,
    userId,
    rotaId: rota.id,
    date,
    start: wall(date, from),
    end: wall(endDate, to),
    startWall: `${date} ${from}`,
    endWall: `${endDate} ${to}`,
    seriesId: null,
    ...more,
  };
};
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
const series: RepeatingShiftObject = {
  id: 50,
  user_id: ME,
  rota_id: rota.id,
  hierarchy_id: TEAM,
  period: 'week',
  frequency: 1,
  start_date: `${DAY} 09:00:00`,
  end_date: null,
  mon: 0,
  tue: 0,
  wed: 1,
  thu: 0,
  fri: 0,
  sat: 0,
  sun: 0,
};
const volunteer: CallerReach = {
  userId: ME,
  seen: new Set([TEAM]),
  manages: new Set(),
  addsShifts: new Set(),
  onHold: false,
};
const manager: CallerReach = { ...volunteer, addsShifts: new Set([TEAM]) };
const context = (over: Partial<ViewContext> = {}): ViewContext => ({
  zone: ZONE,
  now: NOW,
  reach: volunteer,
  callerProfiles: [],
  userFlags: false,
  users: new Map([ME, OTHER, THIRD].map((id) => [id, userBase(id)])),
  series: new Map([[series.id, series]]),
  withShifts: true,
  ...over,
});
/** The rota-day of `date` from these shifts, grouped as the read model groups them. */
const rotaDay = (shifts: ViewShift[], date = DAY, r = rota): RotaDay => {
  const range = {
    shifts: groupBy(shifts, (s) => s.date),
    occurrences: groupBy(timeslotsBetween(r.calendar, date, date, ZONE), (o) => o.date),
  };
  const previous = new Date(Date.parse(date) - 86_400_000).toISOString().slice(0, 10);
  return rotaDayOf(r, range, date, previous);
};

describe('dayRota: statuses (docs/rota-domain.md#statuses)', () => {
  // 0, 1, 2, 3 and 4 volunteers on duty in the five hours: one status each, −2 … 2.
  const staircase = [
    shift(OTHER, DAY, '10:00', '14:00'),
    shift(THIRD, DAY, '11:00', '14:00'),
    shift(ME, DAY, '12:00', '14:00'),
    shift(4, DAY, '13:00', '14:00'),
    shift(5, DAY, '13:00', '13:30'),
  ];

  it('given hours with 0…4 on duty against 1/2/3, when viewed, then each hour has its shift_count, required and status, and the day the lowest', () => {
    const { view } = dayRota(
      rotaDay(staircase),
      context({ users: new Map([1, 2, 3, 4, 5].map((id) => [id, userBase(id)])) }),
    );
    expect(
      view.hours.map((h) => [h.start_time, h.end_time, h.shift_count, h.required, h.status, h.status_text]),
    ).toEqual([
      [`${DAY} 09:00:00`, `${DAY} 10:00:00`, 0, 1, -2, 'below-minimum'],
      [`${DAY} 10:00:00`, `${DAY} 11:00:00`, 1, 0, -1, 'below-ideal'],
      [`${DAY} 11:00:00`, `${DAY} 12:00:00`, 2, 0, 0, 'ideal'],
      [`${DAY} 12:00:00`, `${DAY} 13:00:00`, 3, 0, 1, 'full'],
      // Five on duty until 13:30, four after: the fewest is four, still over 3.
      [`${DAY} 13:00:00`, `${DAY} 14:00:00`, 4, 0, 2, 'over-maximum'],
    ]);
    expect(view.hours.every((h) => h.min === 1 && h.ideal === 2 && h.max === 3)).toBe(true);
    expect([view.status, view.below_minimum, view.closed, view.total_users]).toEqual([-2, true, false, 5]);
    expect(view.shift_patterns).toEqual([
      {
        id: wednesday.id,
        weekday_start: 'wednesday',
        start_time: '09:00:00',
        weekday_end: 'wednesday',
        end_time: '14:00:00',
        min: 1,
        ideal: 2,
        max: 3,
        pattern_status: 'below-minimum',
      },
    ]);
  });

  it('given a date closed by the close action, when viewed, then closed, no hours or timeslots, status 0, and its shifts still listed', () => {
    const closed = rotaOf(rota.calendar.timeline, { calendar: { ...rota.calendar, closed_dates: new Set([DAY]) } });
    const booked = shift(OTHER, DAY, '10:00', '11:00');
    const { view } = dayRota(rotaDay([booked], DAY, closed), context());
    expect([view.closed, view.status, view.below_minimum, view.hours, view.shift_patterns]).toEqual([
      true,
      0,
      false,
      [],
      [],
    ]);
    expect(view.shifts.map((s) => s.id)).toEqual([booked.id]);
  });

  it('given a weekday without timeslots, when viewed, then the rota-day is closed', () => {
    expect(dayRota(rotaDay([], '2027-06-17'), context()).view.closed).toBe(true);
  });

  it('given an overnight shift of the evening before that runs into a timeslot of the day (a new timeslot version), then it counts on duty there', () => {
    const before = slot('tuesday', '22:00', 'wednesday', '06:00');
    const early = slot('wednesday', '05:00', 'wednesday', '07:00');
    const changed = rotaOf([
      { from: '2027-01-01', to: '2027-06-15', timeslots: [before] },
      { from: DAY, to: null, timeslots: [early] },
    ]);
    const night = { ...shift(OTHER, '2027-06-15', '22:00', '06:00', { endDate: DAY }), rotaId: changed.id };
    const day = rotaDay([night], DAY, changed);
    expect(day.shifts).toEqual([]);
    expect(day.duty).toEqual([night]);
    expect(dayRota(day, context()).view.hours.map((h) => h.shift_count)).toEqual([1, 0]);
  });
});

describe('dayRota: shifts and the caller', () => {
  const mine = shift(ME, DAY, '09:00', '10:00');
  const theirs = shift(OTHER, DAY, '09:00', '11:00');

  it('given the caller’s and another’s shift, then shifts lists both with permissions and own_shifts the caller’s without', () => {
    const { view } = dayRota(rotaDay([mine, theirs]), context());
    expect(view.shifts.map((s) => s.id)).toEqual([mine.id, theirs.id]);
    expect(view.own_shifts).toEqual([
      {
        id: mine.id,
        user: userBase(ME),
        date: DAY,
        overnight_shift: false,
        start_time: `${DAY} 09:00`,
        end_time: `${DAY} 10:00`,
        timezone: ZONE,
        repeating_shift: null,
        stand_in: null,
      },
    ]);
    expect(view.shifts[0]).toEqual({
      ...view.own_shifts[0],
      permissions: { can_edit_shift: true, can_cancel_shift: true, can_edit_repeating_shift: false },
    });
    expect(view.total_users).toBe(2);
  });

  it('given user_flags false, then own_shift is false even with a shift of the caller; true with user_flags', () => {
    expect(dayRota(rotaDay([mine]), context()).view.own_shift).toBe(false);
    expect(dayRota(rotaDay([mine]), context({ userFlags: true })).view.own_shift).toBe(true);
    expect(dayRota(rotaDay([theirs]), context({ userFlags: true })).view.own_shift).toBe(false);
  });

  it('given a shift of a series ending after midnight, then repeating_shift is the series object and overnight_shift is true', () => {
    const night = slot('wednesday', '22:00', 'thursday', '06:00');
    const r = rotaOf([{ from: '2027-01-01', to: null, timeslots: [night] }]);
    const late = shift(ME, DAY, '22:00', '02:00', { endDate: '2027-06-17', seriesId: series.id });
    const [own] = dayRota(rotaDay([late], DAY, r), context()).view.own_shifts;
    expect(own).toEqual(
      expect.objectContaining({
        overnight_shift: true,
        start_time: `${DAY} 22:00`,
        end_time: '2027-06-17 02:00',
        repeating_shift: series,
      }),
    );
  });

  it('given the users filter, then only their shifts are listed, while hours and total_users count everyone', () => {
    const { view } = dayRota(rotaDay([mine, theirs]), context({ onlyUsers: new Set([OTHER]) }));
    expect(view.shifts.map((s) => s.id)).toEqual([theirs.id]);
    expect(view.own_shifts).toEqual([]);
    expect(view.hours[0]!.shift_count).toBe(2);
    expect(view.total_users).toBe(2);
  });

  it('given withShifts false (past the detailed cap), then both shift arrays are empty and coverage still counts the shifts', () => {
    const { view } = dayRota(rotaDay([mine, theirs]), context({ withShifts: false }));
    expect([view.shifts, view.own_shifts, view.hours[0]!.shift_count, view.total_users]).toEqual([[], [], 2, 2]);
  });
});

describe('dayRota: a shift looking for a stand-in (docs/rota-domain.md#stand-ins-and-take-overs)', () => {
  const asked = { at: Date.parse('2027-06-10T08:00:00Z'), by: OTHER, note: 'Away' };
  const mine = shift(ME, DAY, '09:00', '11:00', { standIn: asked });
  const theirs = shift(OTHER, DAY, '09:00', '11:00');

  it('given one of two shifts looking for a stand-in, then coverage counts one, while it stays listed, its volunteer’s, with stand_in', () => {
    const { view } = dayRota(rotaDay([mine, theirs]), context({ userFlags: true }));
    expect(view.hours.map((h) => h.shift_count)).toEqual([1, 1, 0, 0, 0]);
    expect([view.own_shift, view.total_users, view.own_shifts.map((s) => s.id)]).toEqual([true, 2, [mine.id]]);
    expect(view.shifts.map((s) => s.stand_in)).toEqual([
      { requested_at: '2027-06-10T08:00:00.000Z', requested_by: userBase(OTHER), note: 'Away' },
      null,
    ]);
  });

  it('given the only shift looking for a stand-in, then the hours it covered are a gap: below minimum', () => {
    const { view } = dayRota(rotaDay([mine]), context());
    expect([view.hours[0]!.shift_count, view.below_minimum, view.status]).toEqual([0, true, -2]);
  });
});

describe('shiftPermissions: what the caller may do now (rules 7 and 8)', () => {
  const mine = shift(ME, DAY, '09:00', '10:00');
  const theirs = shift(OTHER, DAY, '09:00', '10:00');
  const ofSeries = shift(ME, DAY, '10:00', '11:00', { seriesId: series.id });
  const can = (s: ViewShift, ctx: ViewContext, day = rotaDay([s])) => {
    const p = shiftPermissions(day, s, ctx);
    return [p.can_edit_shift, p.can_cancel_shift, p.can_edit_repeating_shift];
  };

  it('given a manager, then every shift may be edited and cancelled, and its series edited when it has one', () => {
    expect(can(theirs, context({ reach: manager }))).toEqual([true, true, false]);
    expect(can({ ...ofSeries, userId: OTHER }, context({ reach: manager }))).toEqual([true, true, true]);
  });

  it('given a volunteer, then another user’s shift allows nothing', () => {
    expect(can(theirs, context())).toEqual([false, false, false]);
  });

  it('given a volunteer’s own future shift on a self-managed rota, then edit and cancel, and the series when it has one', () => {
    expect(can(mine, context())).toEqual([true, true, false]);
    expect(can(ofSeries, context())).toEqual([true, true, true]);
  });

  it('given a rota without self_manage, then a volunteer may do nothing to their own shift', () => {
    const r = rotaOf(rota.calendar.timeline, { selfManage: false });
    expect(can(mine, context(), rotaDay([mine], DAY, r))).toEqual([false, false, false]);
  });

  it('given today’s shift, then rule 8 follows the same-day flags: edit and cancel each need their own', () => {
    const morning = Date.parse(`${DAY}T06:00:00Z`);
    const strict = rotaOf(rota.calendar.timeline, { allowSameDayCancel: false });
    expect(can(mine, context({ now: morning }), rotaDay([mine], DAY, strict))).toEqual([true, false, false]);
    const noEdit = rotaOf(rota.calendar.timeline, { allowSameDayEdit: false });
    expect(can(ofSeries, context({ now: morning }), rotaDay([ofSeries], DAY, noEdit))).toEqual([false, true, false]);
  });

  it('given a shift that has started, then a volunteer may neither edit nor cancel it; a manager still may', () => {
    const started = mine.start + 60_000;
    expect(can(mine, context({ now: started }))).toEqual([false, false, false]);
    expect(can(mine, context({ now: started, reach: manager }))).toEqual([true, true, false]);
  });

  it('given an overnight shift on its start date, then a volunteer may not act on it whatever the flags', () => {
    const night = slot('wednesday', '22:00', 'thursday', '06:00');
    const r = rotaOf([{ from: '2027-01-01', to: null, timeslots: [night] }]);
    const late = shift(ME, DAY, '22:00', '02:00', { endDate: '2027-06-17' });
    expect(can(late, context({ now: Date.parse(`${DAY}T08:00:00Z`) }), rotaDay([late], DAY, r))).toEqual([
      false,
      false,
      false,
    ]);
    expect(can(late, context(), rotaDay([late], DAY, r))).toEqual([true, true, false]);
  });

  it('given a timeslot a manager filled over max, then a volunteer may not edit their shift there (rule 7) but may cancel it', () => {
    const crowd = [mine, ...[2, 3, 4].map((id) => shift(id, DAY, '09:00', '10:00'))];
    expect(can(mine, context(), rotaDay(crowd))).toEqual([false, true, false]);
  });

  it('given a caller on hold, or without an allowed role on a restricted rota, then their own shift may be cancelled but not edited', () => {
    expect(can(mine, context({ reach: { ...volunteer, onHold: true } }))).toEqual([false, true, false]);
    const restricted = rotaOf(rota.calendar.timeline, { restrictedByRole: true, roleProfileIds: [9] });
    expect(can(mine, context(), rotaDay([mine], DAY, restricted))).toEqual([false, true, false]);
    expect(can(mine, context({ callerProfiles: [9] }), rotaDay([mine], DAY, restricted))).toEqual([true, true, false]);
  });
});

describe('dayView', () => {
  it('given rotas with timeslots, then start_time and end_time are the earliest start and latest end in UTC (summer time: one hour earlier)', () => {
    const late = rotaOf(
      [{ from: '2027-01-01', to: null, timeslots: [slot('wednesday', '20:00', 'thursday', '01:30')] }],
      { id: 12 },
    );
    const view = dayView([rotaDay([]), rotaDay([], DAY, late)], context(), false);
    expect([view.start_time, view.end_time, view.truncated, view.max_rotas]).toEqual([
      '08:00',
      '00:30',
      false,
      MAX_ROTAS,
    ]);
    expect(view.rotas.map((r) => r.id)).toEqual([rota.id, late.id]);
  });

  it('given no timeslot that day (closed, or no rotas), then start_time and end_time are null', () => {
    expect(dayView([rotaDay([], '2027-06-17')], context(), true)).toEqual(
      expect.objectContaining({ start_time: null, end_time: null, truncated: true }),
    );
    expect(dayView([], context(), false)).toEqual({
      start_time: null,
      end_time: null,
      truncated: false,
      max_rotas: MAX_ROTAS,
      rotas: [],
    });
  });

  it('uses the occurrences it is given (the read model computes them once): timeslotsOn agrees', () => {
    expect(rotaDay([]).occurrences).toEqual(timeslotsOn(rota.calendar, DAY, ZONE));
  });
});

import { describe, expect, it } from '@jest/globals';
import type { RotaCalendar } from './rota-calendar.js';
import { dayChanged, shiftsThatNoLongerFit, stillFits, whyShiftDoesNotFit } from './shift-fit.js';
import { applyTimeslots } from './timeslot-timeline.js';
import type { RotaTimeslot, Weekday } from './weekly-timeslots.js';

const ZONE = 'Europe/London';
const at = (iso: string) => Date.parse(iso);
const slot = (
  id: number,
  weekday_start: Weekday,
  start_time: string,
  weekday_end: Weekday,
  end_time: string,
): RotaTimeslot => ({ id, weekday_start, start_time, weekday_end, end_time, min: 1, ideal: 1, max: 2 });
// 2027-03-29 is a Monday (BST since the 28th: London is UTC+1).
const rota: RotaCalendar = {
  start_date: '2027-03-01',
  end_date: null,
  archived: false,
  closed_dates: new Set(),
  timeline: [
    {
      from: '2027-03-01',
      to: null,
      timeslots: [slot(1, 'monday', '09:00', 'monday', '12:00'), slot(2, 'monday', '22:00', 'tuesday', '06:00')],
    },
  ],
};
const shift = (date: string, start: string, end: string) => ({ date, start: at(start), end: at(end) });

describe('whyShiftDoesNotFit / stillFits', () => {
  it('given a shift inside a timeslot, or touching both its ends, then it fits (half-open intervals)', () => {
    expect(
      whyShiftDoesNotFit(rota, shift('2027-03-29', '2027-03-29T08:30Z', '2027-03-29T10:00Z'), ZONE, false),
    ).toBeNull();
    expect(stillFits(rota, shift('2027-03-29', '2027-03-29T08:00Z', '2027-03-29T11:00Z'), ZONE, false)).toBe(true);
    expect(
      stillFits(
        rota,
        { date: '2027-03-29', start: new Date('2027-03-29T09:00Z'), end: new Date('2027-03-29T10:00Z') },
        ZONE,
        false,
      ),
    ).toBe(true);
  });

  it('given a shift sticking out of its timeslot by a minute at either end, or of no length, then it is outside', () => {
    expect(whyShiftDoesNotFit(rota, shift('2027-03-29', '2027-03-29T07:59Z', '2027-03-29T10:00Z'), ZONE, false)).toBe(
      'outside_timeslot',
    );
    expect(whyShiftDoesNotFit(rota, shift('2027-03-29', '2027-03-29T09:00Z', '2027-03-29T11:01Z'), ZONE, false)).toBe(
      'outside_timeslot',
    );
    expect(whyShiftDoesNotFit(rota, shift('2027-03-29', '2027-03-29T09:00Z', '2027-03-29T09:00Z'), ZONE, false)).toBe(
      'outside_timeslot',
    );
  });

  it('given require_full_timeslot, then only a shift covering the timeslot exactly fits', () => {
    expect(stillFits(rota, shift('2027-03-29', '2027-03-29T08:00Z', '2027-03-29T11:00Z'), ZONE, true)).toBe(true);
    expect(whyShiftDoesNotFit(rota, shift('2027-03-29', '2027-03-29T08:30Z', '2027-03-29T11:00Z'), ZONE, true)).toBe(
      'outside_timeslot',
    );
  });

  it(
    "given an overnight shift in the overnight timeslot, then it fits on the evening's date; one " +
      'starting after midnight in it does not (it belongs to the next date)',
    () => {
      expect(stillFits(rota, shift('2027-03-29', '2027-03-29T21:00Z', '2027-03-30T05:00Z'), ZONE, false)).toBe(true);
      expect(whyShiftDoesNotFit(rota, shift('2027-03-30', '2027-03-30T01:00Z', '2027-03-30T03:00Z'), ZONE, false)).toBe(
        'rota_closed',
      );
    },
  );

  it("given a closed weekday, a closed date, an archived rota, a date before the start or after the end, then the rota's reason", () => {
    const inside = shift('2027-03-29', '2027-03-29T08:30Z', '2027-03-29T10:00Z');
    expect(whyShiftDoesNotFit({ ...rota, closed_dates: new Set(['2027-03-29']) }, inside, ZONE, false)).toBe(
      'rota_closed',
    );
    expect(whyShiftDoesNotFit({ ...rota, archived: true }, inside, ZONE, false)).toBe('rota_archived');
    expect(whyShiftDoesNotFit({ ...rota, start_date: '2027-03-30' }, inside, ZONE, false)).toBe('rota_not_started');
    expect(whyShiftDoesNotFit({ ...rota, end_date: '2027-03-28' }, inside, ZONE, false)).toBe('rota_ended');
    expect(whyShiftDoesNotFit({ ...rota, end_date: '2027-03-29' }, inside, ZONE, false)).toBeNull();
  });
});

describe('dayChanged', () => {
  it('given the same rota, then no day changed; given a closed date, an end date or an archive, then exactly the dates they touch', () => {
    expect(dayChanged(rota, rota, '2027-03-29')).toBe(false);
    const closed = { ...rota, closed_dates: new Set(['2027-04-05']) };
    expect([dayChanged(rota, closed, '2027-04-05'), dayChanged(rota, closed, '2027-04-12')]).toEqual([true, false]);
    const ended = { ...rota, end_date: '2027-04-04' };
    expect([dayChanged(rota, ended, '2027-04-04'), dayChanged(rota, ended, '2027-04-05')]).toEqual([false, true]);
    expect(dayChanged(rota, { ...rota, archived: true }, '2027-03-29')).toBe(true);
  });

  it('given a timeslot write, then only the dates whose timeslot times differ changed, not new ids or numbers', () => {
    const moved = {
      ...rota,
      timeline: applyTimeslots(rota.timeline, {
        from: '2027-04-05',
        to: '2027-04-11',
        timeslots: [slot(7, 'monday', '10:00', 'monday', '12:00'), slot(8, 'monday', '22:00', 'tuesday', '06:00')],
      }),
    };
    expect([
      dayChanged(rota, moved, '2027-04-05'),
      dayChanged(rota, moved, '2027-04-06'),
      dayChanged(rota, moved, '2027-04-12'),
    ]).toEqual([true, false, false]);
    const renumbered = {
      ...rota,
      timeline: applyTimeslots(rota.timeline, {
        from: '2027-04-05',
        timeslots: rota.timeline[0]!.timeslots.map((s) => ({ ...s, id: s.id + 10, max: 9 })),
      }),
    };
    expect(dayChanged(rota, renumbered, '2027-04-05')).toBe(false);
  });
});

describe('shiftsThatNoLongerFit', () => {
  const NOW = at('2027-04-01T12:00Z');
  const shifts = [
    { id: 1, ...shift('2027-03-29', '2027-03-29T08:30Z', '2027-03-29T10:00Z') }, // past
    { id: 2, ...shift('2027-04-05', '2027-04-05T08:00Z', '2027-04-05T09:00Z') }, // 09:00–10:00 BST
    { id: 3, ...shift('2027-04-05', '2027-04-05T09:00Z', '2027-04-05T11:00Z') }, // 10:00–12:00 BST
    { id: 4, ...shift('2027-04-12', '2027-04-12T08:00Z', '2027-04-12T09:00Z') },
    { id: 5, ...shift('2027-04-06', '2027-04-06T12:00Z', '2027-04-06T13:00Z') }, // a Tuesday: booked over the rules
  ];

  it('given timeslots moved to 10:00 over one week, then only the future shift now outside them is cancelled', () => {
    const after = {
      ...rota,
      timeline: applyTimeslots(rota.timeline, {
        from: '2027-04-05',
        to: '2027-04-11',
        timeslots: [slot(7, 'monday', '10:00', 'monday', '12:00')],
      }),
    };
    expect(
      shiftsThatNoLongerFit(after, shifts, { zone: ZONE, requireFullTimeslot: false, now: NOW, before: rota }),
    ).toEqual([{ shift_id: 2, reason: 'outside_timeslot' }]);
  });

  it('given an end date, then the future shifts after it are cancelled, the past one and the one booked over the rules before it untouched', () => {
    const after = { ...rota, end_date: '2027-04-05' };
    expect(
      shiftsThatNoLongerFit(after, shifts, { zone: ZONE, requireFullTimeslot: false, now: NOW, before: rota }),
    ).toEqual([
      { shift_id: 4, reason: 'rota_ended' },
      { shift_id: 5, reason: 'rota_ended' },
    ]);
  });

  it('given a closed date, then its shifts are cancelled as closed; given an archive, every future shift', () => {
    expect(
      shiftsThatNoLongerFit({ ...rota, closed_dates: new Set(['2027-04-05']) }, shifts, {
        zone: ZONE,
        requireFullTimeslot: false,
        now: NOW,
        before: rota,
      }).map((c) => [c.shift_id, c.reason]),
    ).toEqual([
      [2, 'rota_closed'],
      [3, 'rota_closed'],
    ]);
    expect(
      shiftsThatNoLongerFit({ ...rota, archived: true }, shifts, {
        zone: ZONE,
        requireFullTimeslot: false,
        now: NOW,
        before: rota,
      }).map((c) => c.shift_id),
    ).toEqual([2, 3, 4, 5]);
  });

  it('given no rota before the change, then every future shift given is looked at, the one booked over the rules included', () => {
    const after = { ...rota, end_date: '2027-04-30' };
    expect(shiftsThatNoLongerFit(after, shifts, { zone: ZONE, requireFullTimeslot: false, now: NOW })).toEqual([
      { shift_id: 5, reason: 'rota_closed' },
    ]);
    expect(
      shiftsThatNoLongerFit(after, shifts, { zone: ZONE, requireFullTimeslot: false, now: NOW, before: rota }),
    ).toEqual([]);
  });

  it('given require_full_timeslot, then future shifts covering part of their timeslot no longer fit once their day changes', () => {
    const after = {
      ...rota,
      timeline: applyTimeslots(rota.timeline, {
        from: '2027-04-05',
        to: '2027-04-05',
        timeslots: [slot(7, 'monday', '09:00', 'monday', '10:00')],
      }),
    };
    expect(
      shiftsThatNoLongerFit(after, shifts, { zone: ZONE, requireFullTimeslot: true, now: NOW, before: rota }),
    ).toEqual([{ shift_id: 3, reason: 'outside_timeslot' }]);
  });

  it('given a shift starting right now, then it has started and is left alone', () => {
    expect(
      shiftsThatNoLongerFit({ ...rota, archived: true }, shifts, {
        zone: ZONE,
        requireFullTimeslot: false,
        now: at('2027-04-05T08:00Z'),
      }).map((c) => c.shift_id),
    ).toEqual([3, 4, 5]);
  });
});

import { describe, expect, it } from '@jest/globals';
import {
  arcOf,
  arcsOverlap,
  byWeekStart,
  clockMinutes,
  overlapsWithEarlier,
  staffingOrderRefusals,
  wallMinutes,
  type WeeklyTimeslot,
  weekMinute,
} from './weekly-timeslots.js';

const slot = (weekday_start: string, start_time: string, weekday_end: string, end_time: string) =>
  ({ weekday_start, start_time, weekday_end, end_time, min: 1, ideal: 2, max: 3 }) as WeeklyTimeslot;

describe('weekly timeslots', () => {
  it('given HH:MM and HH:MM:00, then minutes of the day; given anything else, then null', () => {
    expect(clockMinutes('00:00')).toBe(0);
    expect(clockMinutes('23:59')).toBe(1439);
    expect(clockMinutes('09:30:00')).toBe(570);
    for (const bad of ['24:00', '9:00', '09:30:15', '09:60', ' 09:00', 930, null]) expect(clockMinutes(bad)).toBeNull();
  });

  it('given weekdays and times, then minutes of the week from Monday 00:00', () => {
    expect(weekMinute('monday', '00:00')).toBe(0);
    expect(weekMinute('sunday', '23:59')).toBe(7 * 1440 - 1);
    expect(weekMinute('tuesday', '06:00')).toBe(1440 + 360);
  });

  it('given a timeslot, then it lasts until the first weekday_end end_time after its start', () => {
    expect(wallMinutes(slot('monday', '09:00', 'monday', '17:00'))).toBe(8 * 60);
    expect(wallMinutes(slot('monday', '22:00', 'tuesday', '06:00'))).toBe(8 * 60);
    expect(wallMinutes(slot('sunday', '22:00', 'monday', '06:00'))).toBe(8 * 60);
    expect(wallMinutes(slot('friday', '18:00', 'monday', '08:00'))).toBe(2 * 1440 + 14 * 60);
    expect(wallMinutes(slot('monday', '10:00', 'monday', '09:00'))).toBe(7 * 1440 - 60);
    expect(wallMinutes(slot('monday', '10:00', 'monday', '10:00'))).toBe(0);
  });

  it('given arcs that touch, then they do not overlap (half-open); given arcs that share a minute across Sunday, then they do', () => {
    const night = arcOf(slot('sunday', '22:00', 'monday', '06:00'));
    expect(arcsOverlap(night, arcOf(slot('monday', '06:00', 'monday', '08:00')))).toBe(false);
    expect(arcsOverlap(night, arcOf(slot('sunday', '20:00', 'sunday', '22:00')))).toBe(false);
    expect(arcsOverlap(night, arcOf(slot('monday', '05:00', 'monday', '07:00')))).toBe(true);
    expect(arcsOverlap(arcOf(slot('monday', '05:00', 'monday', '07:00')), night)).toBe(true);
    expect(arcsOverlap(night, arcOf(slot('sunday', '23:00', 'sunday', '23:30')))).toBe(true);
  });

  it('given several arcs, then each one overlapping an earlier one is paired with the first such', () => {
    const arcs = [
      slot('monday', '09:00', 'monday', '12:00'),
      slot('monday', '13:00', 'monday', '14:00'),
      slot('monday', '11:00', 'monday', '13:30'),
      slot('monday', '12:00', 'monday', '13:00'),
    ].map(arcOf);
    expect(overlapsWithEarlier(arcs)).toEqual([
      [0, 2],
      [2, 3],
    ]);
  });

  it('given staffing out of order, then each broken rule names the field it was written in', () => {
    const fields = { min: 'p.min', ideal: 'p.ideal', max: 'p.max' };
    expect(staffingOrderRefusals({ min: 1, ideal: 1, max: 1 }, fields)).toEqual([]);
    expect(staffingOrderRefusals({ min: 0, ideal: 0, max: 1 }, fields)).toEqual([]);
    expect(staffingOrderRefusals({ min: 0, ideal: 0, max: 0 }, fields).map((r) => r.field)).toEqual(['p.max']);
    expect(staffingOrderRefusals({ min: 3, ideal: 2, max: 1 }, fields).map((r) => r.field)).toEqual([
      'p.min',
      'p.ideal',
    ]);
  });

  it('given timeslots in any order, then byWeekStart orders them from Monday 00:00', () => {
    const sorted = byWeekStart([
      slot('sunday', '22:00', 'monday', '06:00'),
      slot('monday', '09:00', 'monday', '10:00'),
      slot('monday', '07:00', 'monday', '08:00'),
    ]);
    expect(sorted.map((s) => `${s.weekday_start} ${s.start_time}`)).toEqual([
      'monday 07:00',
      'monday 09:00',
      'sunday 22:00',
    ]);
  });
});

import { describe, expect, it } from '@jest/globals';
import { wallClockToInstant } from '#app/platform';
import type { RotaCalendar } from '../domain/rota-calendar.js';
import type { RotaTimeslot, Weekday } from '../domain/weekly-timeslots.js';
import {
  coverAlertDays,
  coverAlertKey,
  coverAlertMail,
  type CoverShift,
  coverWindow,
  recipientsOf,
  shortOccurrences,
  volunteerPool,
} from './cover-alert-plan.js';

const ZONE = 'Europe/London';
const DAY = 86_400_000;
const WEEK: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const at = (date: string, time: string) => wallClockToInstant(date, time, ZONE).getTime();

/** Every day 09:00–12:00 (min 2) and 18:00–20:00 (min 0: never short). */
const slots: RotaTimeslot[] = WEEK.flatMap((d, i) => [
  { id: 2 * i + 1, weekday_start: d, start_time: '09:00', weekday_end: d, end_time: '12:00', min: 2, ideal: 3, max: 4 },
  { id: 2 * i + 2, weekday_start: d, start_time: '18:00', weekday_end: d, end_time: '20:00', min: 0, ideal: 1, max: 2 },
]);
const rota = (more: Partial<RotaCalendar> = {}): RotaCalendar => ({
  start_date: '2026-06-01',
  end_date: null,
  archived: false,
  closed_dates: new Set(),
  timeline: [{ from: '2026-06-01', to: null, timeslots: slots }],
  ...more,
});
const shift = (date: string, from: string, to: string): CoverShift => ({
  date,
  start: at(date, from),
  end: at(date, to),
});
/** Monday 2026-06-15 08:00 London: the 09:00 timeslot has not started. */
const NOW = at('2026-06-15', '08:00');
const dates = (found: ReturnType<typeof shortOccurrences>) =>
  found.map((s) => `${s.occurrence.start_wall} needs ${s.needed}`);

describe('cover alerts: which occurrences are below minimum (docs/rota-domain.md#cover-alerts)', () => {
  it('given "0", anything not a whole number 0–30, or a number, when read, then alerts are off', () => {
    expect(['0', '7', '30', '', 'x', '1.5', null, 7].map(coverAlertDays)).toEqual([0, 7, 30, 0, 0, 0, 0, 0]);
  });

  it('given no shifts and 2 days, when judged, then each 09:00 starting before now + 48 h needs 2, and a min-0 timeslot never', () => {
    expect(dates(shortOccurrences(rota(), ZONE, [], coverWindow(NOW, 2)))).toEqual([
      '2026-06-15 09:00 needs 2',
      '2026-06-16 09:00 needs 2',
    ]);
  });

  it('given an occurrence that has started, when judged, then it is not watched (nor one starting at now + 24 h exactly)', () => {
    expect(dates(shortOccurrences(rota(), ZONE, [], coverWindow(at('2026-06-15', '09:01'), 1)))).toEqual([
      '2026-06-16 09:00 needs 2',
    ]);
  });

  it('given 0 days, when judged, then nothing is watched', () => {
    expect(shortOccurrences(rota(), ZONE, [], coverWindow(NOW, 0))).toEqual([]);
  });

  it('given one volunteer all morning, when judged, then it still needs 1; with two it is not short', () => {
    const one = [shift('2026-06-15', '09:00', '12:00')];
    expect(dates(shortOccurrences(rota(), ZONE, one, coverWindow(NOW, 1)))).toEqual(['2026-06-15 09:00 needs 1']);
    const two = [...one, shift('2026-06-15', '09:00', '12:00')];
    expect(shortOccurrences(rota(), ZONE, two, coverWindow(NOW, 1))).toEqual([]);
  });

  it('given two volunteers but a gap in one hour, when judged, then it is short as the views say (the fewest on duty)', () => {
    const shifts = [shift('2026-06-15', '09:00', '12:00'), shift('2026-06-15', '09:00', '11:00')];
    expect(dates(shortOccurrences(rota(), ZONE, shifts, coverWindow(NOW, 1)))).toEqual(['2026-06-15 09:00 needs 1']);
  });

  it('given a closed day, an end date, an archived rota or one not started, when judged, then those days are not watched', () => {
    const window = coverWindow(NOW, 3);
    expect(dates(shortOccurrences(rota({ closed_dates: new Set(['2026-06-16']) }), ZONE, [], window))).toEqual([
      '2026-06-15 09:00 needs 2',
      '2026-06-17 09:00 needs 2',
    ]);
    expect(dates(shortOccurrences(rota({ end_date: '2026-06-15' }), ZONE, [], window))).toEqual([
      '2026-06-15 09:00 needs 2',
    ]);
    expect(shortOccurrences(rota({ archived: true }), ZONE, [], window)).toEqual([]);
    expect(dates(shortOccurrences(rota({ start_date: '2026-06-17' }), ZONE, [], window))).toEqual([
      '2026-06-17 09:00 needs 2',
    ]);
  });

  it('given only one date asked for, when judged, then only that date is', () => {
    expect(dates(shortOccurrences(rota(), ZONE, [], coverWindow(NOW, 5), '2026-06-17'))).toEqual([
      '2026-06-17 09:00 needs 2',
    ]);
    expect(coverWindow(NOW, 5).to - NOW).toBe(5 * DAY);
  });
});

describe('cover alerts: who gets what', () => {
  const rotaOf = (more = {}) => ({
    teamId: 7,
    selfManage: true,
    restrictedByRole: false,
    roleProfileIds: [3],
    ...more,
  });

  it('given a self-managed rota, when pooled, then its own team, any profile; restricted: its profiles; not self-managed: nobody', () => {
    expect(volunteerPool(rotaOf())).toEqual({ teamId: 7, profiles: null });
    expect(volunteerPool(rotaOf({ restrictedByRole: true }))).toEqual({ teamId: 7, profiles: [3] });
    expect(volunteerPool(rotaOf({ selfManage: false }))).toBeNull();
  });

  it('given a contact who is also a volunteer, when the recipients are chosen, then they get one mail, as a contact', () => {
    const p = (id: number, email = `u${id}@x.example`) => ({ id, email, name: `U${id}` });
    expect(recipientsOf([p(1), p(2)], [p(2), p(3), p(4, '')]).map((r) => [r.id, r.contact])).toEqual([
      [1, true],
      [2, true],
      [3, false],
    ]);
  });

  it('given a short occurrence, when mailed, then the subject begins "Cover needed:" and the text names the rota, date, times and count', () => {
    const [short] = shortOccurrences(rota(), ZONE, [], coverWindow(NOW, 1));
    const mail = coverAlertMail('Café', short!, { id: 3, email: 'v@x.example', name: 'Vi', contact: false });
    expect(mail.subject).toBe('Cover needed: Café, 2026-06-15 09:00-12:00');
    expect(mail.text).toContain('Hello Vi,');
    expect(mail.text).toContain('Café needs 2 more volunteers on 2026-06-15, 09:00 to 12:00.');
    expect(mail.to).toBe('v@x.example');
    expect(coverAlertKey(1, 5, short!.occurrence, 3)).toBe('cover-alert-1-5-2026-06-15-0900-3');
  });
});

describe('cover alerts: the window end', () => {
  it('given an occurrence starting exactly at now + N × 24 h, when judged, then it is outside', () => {
    expect(dates(shortOccurrences(rota(), ZONE, [], coverWindow(at('2026-06-15', '09:00'), 1)))).toEqual([]);
  });
});

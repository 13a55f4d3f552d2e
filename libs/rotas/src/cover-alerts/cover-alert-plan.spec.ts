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

describe('cover alerts: nights and clock changes (the views’ hour entries)', () => {
  const only = (timeslots: RotaTimeslot[]) => rota({ timeline: [{ from: '2026-01-01', to: null, timeslots }] });
  const nightly = only(
    WEEK.map((d, i) => ({
      id: i + 1,
      weekday_start: d,
      start_time: '22:00',
      weekday_end: WEEK[(i + 1) % 7]!,
      end_time: '06:00',
      min: 1,
      ideal: 1,
      max: 2,
    })),
  );
  const night = (date: string, next: string): CoverShift => ({
    date,
    start: at(date, '22:00'),
    end: at(next, '06:00'),
  });

  it('given nightly 22:00–06:00, when judged at 08:00, then last night’s (started) is not watched; tonight’s is, until booked', () => {
    const window = coverWindow(NOW, 1);
    expect(dates(shortOccurrences(nightly, ZONE, [night('2026-06-14', '2026-06-15')], window))).toEqual([
      '2026-06-15 22:00 needs 1',
    ]);
    expect(shortOccurrences(nightly, ZONE, [night('2026-06-15', '2026-06-16')], window)).toEqual([]);
    const found = shortOccurrences(nightly, ZONE, [], window);
    const mail = coverAlertMail('Night', found[0]!, { id: 1, email: 'a@x.example', name: 'A', contact: true });
    expect(mail.subject).toBe('Cover needed: Night, 2026-06-15 22:00-06:00');
    expect(mail.text).toContain('Night needs 1 more volunteer on 2026-06-15, 22:00 to 06:00 (2026-06-16).');
    // Plain ASCII for an ASCII rota name: sent 7bit, its text readable without decoding.
    expect(mail.text).toMatch(/^[\x20-\x7e\n]*$/);
  });

  it('given a shift of the evening before running into an early timeslot, when judged, then it counts on duty there', () => {
    const early = only([
      ...WEEK.map((d, i) => ({
        id: i + 1,
        weekday_start: d,
        start_time: '20:00',
        weekday_end: WEEK[(i + 1) % 7]!,
        end_time: '04:00',
        min: 0,
        ideal: 1,
        max: 2,
      })),
      ...WEEK.map((d, i) => ({
        id: i + 8,
        weekday_start: d,
        start_time: '02:00',
        weekday_end: d,
        end_time: '04:00',
        min: 1,
        ideal: 1,
        max: 2,
      })),
    ]);
    const window = coverWindow(at('2026-06-16', '01:00'), 0.5);
    expect(dates(shortOccurrences(early, ZONE, [], window))).toEqual(['2026-06-16 02:00 needs 1']);
    const evening = { date: '2026-06-15', start: at('2026-06-15', '20:00'), end: at('2026-06-16', '04:00') };
    expect(shortOccurrences(early, ZONE, [evening], window)).toEqual([]);
  });

  it('given the clocks going forward or back, when the window is N × 24 real hours, then it ends at that instant, not at the same wall time', () => {
    // 2026-03-29: 08:30 GMT + 24 h is 09:30 BST, after that day's 09:00.
    expect(
      dates(
        shortOccurrences(
          rota({ start_date: '2026-03-01', timeline: [{ from: '2026-03-01', to: null, timeslots: slots }] }),
          ZONE,
          [],
          coverWindow(at('2026-03-28', '08:30'), 1),
        ),
      ),
    ).toEqual(['2026-03-28 09:00 needs 2', '2026-03-29 09:00 needs 2']);
    // 2026-10-25: 09:30 BST + 24 h is 08:30 GMT, before that day's 09:00.
    expect(
      shortOccurrences(
        rota({ start_date: '2026-10-01', timeline: [{ from: '2026-10-01', to: null, timeslots: slots }] }),
        ZONE,
        [],
        coverWindow(at('2026-10-24', '09:30'), 1),
      ),
    ).toEqual([]);
  });

  it('given the autumn night, when one shift covers a 00:30–03:30 timeslot’s four real hours, then it is not short; one ending at the first 01:30 leaves it short', () => {
    const autumn = only(
      WEEK.map((d, i) => ({
        id: i + 1,
        weekday_start: d,
        start_time: '00:30',
        weekday_end: d,
        end_time: '03:30',
        min: 1,
        ideal: 1,
        max: 2,
      })),
    );
    const window = coverWindow(at('2026-10-24', '12:00'), 1);
    const whole = shift('2026-10-25', '00:30', '03:30');
    expect(whole.end - whole.start).toBe(4 * 3_600_000);
    expect(shortOccurrences(autumn, ZONE, [whole], window)).toEqual([]);
    expect(dates(shortOccurrences(autumn, ZONE, [shift('2026-10-25', '00:30', '01:30')], window))).toEqual([
      '2026-10-25 00:30 needs 1',
    ]);
  });
});

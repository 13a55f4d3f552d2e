import { describe, expect, it } from '@jest/globals';
import { testDecider, ValidationError } from '#app/platform';
import { throwIfRefused } from './refusals.js';
import {
  applyTimeslots,
  checkWriteRange,
  decideTimeslotWrite,
  idSource,
  initialTimeline,
  type Timeline,
  type TimeslotWrite,
  versionOn,
  type WriteContext,
  writeTimeslots,
} from './timeslot-timeline.js';
import { checkWeekdays } from './weekdays-rules.js';
import type { RotaTimeslot, WeeklyTimeslot } from './weekly-timeslots.js';

const weekly = (start_time: string, end_time: string): WeeklyTimeslot => ({
  weekday_start: 'monday',
  start_time,
  weekday_end: 'monday',
  end_time,
  min: 1,
  ideal: 1,
  max: 2,
});
const withId = (id: number, slot: WeeklyTimeslot): RotaTimeslot => ({ id, ...slot });
const A = [withId(1, weekly('09:00', '12:00'))];
const B = [withId(2, weekly('13:00', '15:00'))];
const C = [withId(3, weekly('16:00', '18:00'))];
const N = [withId(10, weekly('07:00', '08:00'))];
const idsOf = (timeline: Timeline) =>
  timeline.map((v) => `${v.from}..${v.to ?? ''}:${v.timeslots.map((t) => t.id).join(',')}`);

describe('applyTimeslots (the timeline after a write)', () => {
  const three: Timeline = [
    { from: '2027-01-01', to: '2027-03-31', timeslots: A },
    { from: '2027-04-01', to: '2027-06-30', timeslots: B },
    { from: '2027-07-01', to: null, timeslots: C },
  ];

  it('given one open version, when a set is written from a date with no end, then the old one ends the day before and the new one runs on', () => {
    expect(idsOf(applyTimeslots(initialTimeline('2027-01-01', A), { from: '2027-03-01', timeslots: N }))).toEqual([
      '2027-01-01..2027-02-28:1',
      '2027-03-01..:10',
    ]);
  });

  it('given one open version, when a set is written over [from, to], then the version is split and its tail stands again with the same ids', () => {
    const after = applyTimeslots(initialTimeline('2027-01-01', A), {
      from: '2027-03-01',
      to: '2027-03-14',
      timeslots: N,
    });
    expect(idsOf(after)).toEqual(['2027-01-01..2027-02-28:1', '2027-03-01..2027-03-14:10', '2027-03-15..:1']);
    expect(after[2]!.timeslots).toBe(A);
  });

  it('given three versions, when a range covers the middle one and cuts both others, then it is dropped and the others are trimmed', () => {
    expect(idsOf(applyTimeslots(three, { from: '2027-03-15', to: '2027-07-10', timeslots: N }))).toEqual([
      '2027-01-01..2027-03-14:1',
      '2027-03-15..2027-07-10:10',
      '2027-07-11..:3',
    ]);
  });

  it('given three versions, when a set is written from a date with no end, then every later version is dropped', () => {
    expect(idsOf(applyTimeslots(three, { from: '2027-02-01', to: null, timeslots: N }))).toEqual([
      '2027-01-01..2027-01-31:1',
      '2027-02-01..:10',
    ]);
  });

  it("given versions, when the write starts on a version's first day and ends on another's last, then no empty piece is left", () => {
    expect(idsOf(applyTimeslots(three, { from: '2027-04-01', to: '2027-06-30', timeslots: N }))).toEqual([
      '2027-01-01..2027-03-31:1',
      '2027-04-01..2027-06-30:10',
      '2027-07-01..:3',
    ]);
    expect(idsOf(applyTimeslots(three, { from: '2027-01-01', to: '2027-03-31', timeslots: N }))).toEqual([
      '2027-01-01..2027-03-31:10',
      '2027-04-01..2027-06-30:2',
      '2027-07-01..:3',
    ]);
  });

  it('given a one-day write, then it covers that day alone', () => {
    expect(idsOf(applyTimeslots(three, { from: '2027-05-05', to: '2027-05-05', timeslots: [] }))).toEqual([
      '2027-01-01..2027-03-31:1',
      '2027-04-01..2027-05-04:2',
      '2027-05-05..2027-05-05:',
      '2027-05-06..2027-06-30:2',
      '2027-07-01..:3',
    ]);
  });

  it('given a write before the timeline starts, then the dates between keep having no timeslots; on an empty timeline, only the write stands', () => {
    expect(idsOf(applyTimeslots(three, { from: '2026-12-01', to: '2026-12-10', timeslots: N }))).toEqual([
      '2026-12-01..2026-12-10:10',
      '2027-01-01..2027-03-31:1',
      '2027-04-01..2027-06-30:2',
      '2027-07-01..:3',
    ]);
    expect(idsOf(applyTimeslots([], { from: '2027-05-05', to: '2027-05-06', timeslots: N }))).toEqual([
      '2027-05-05..2027-05-06:10',
    ]);
  });

  it('given a timeline, then versionOn finds the version of a date, or null outside every version', () => {
    expect(versionOn(three, '2027-03-31')?.timeslots).toBe(A);
    expect(versionOn(three, '2027-04-01')?.timeslots).toBe(B);
    expect(versionOn(three, '2099-01-01')?.timeslots).toBe(C);
    expect(versionOn(three, '2026-12-31')).toBeNull();
  });
});

describe('writeTimeslots and the id source', () => {
  it('given weekly timeslots, then each gets the next id drawn, in order', () => {
    const after = writeTimeslots(
      initialTimeline('2027-01-01', A),
      { from: '2027-02-01', timeslots: [weekly('07:00', '08:00'), weekly('08:00', '09:00')] },
      idSource([41, 42]),
    );
    expect(after[1]!.timeslots.map((t) => t.id)).toEqual([41, 42]);
  });

  it('given fewer ids drawn than timeslots, then it is a RangeError, not a made-up id', () => {
    expect(() =>
      writeTimeslots(
        [],
        { from: '2027-02-01', timeslots: [weekly('07:00', '08:00'), weekly('08:00', '09:00')] },
        idSource([41]),
      ),
    ).toThrow(RangeError);
  });
});

describe('checkWriteRange', () => {
  it("given from today, then it passes; from yesterday, then it is refused (today is the rota zone's date the handler passes in)", () => {
    expect(checkWriteRange({ from: '2027-03-28' }, '2027-03-28')).toEqual([]);
    expect(checkWriteRange({ from: '2027-03-27' }, '2027-03-28')).toEqual([
      { field: 'from', message: 'The from field must be today (2027-03-28) or later.' },
    ]);
  });

  it("given replace's field names, then the refusals use them", () => {
    expect(
      checkWriteRange({ from: '2027-03-27', to: '2027-03-26' }, '2027-03-28', {
        from: 'start_date',
        to: 'end_date',
      }).map((r) => r.field),
    ).toEqual(['start_date', 'end_date']);
  });

  it('given no from, a malformed date, or a to before from, then each is refused; a to equal to from passes', () => {
    expect(checkWriteRange({}, '2027-03-28').map((r) => r.field)).toEqual(['from']);
    expect(checkWriteRange({ from: '2027-02-30', to: '28/03/2027' }, '2027-03-28').map((r) => r.field)).toEqual([
      'from',
      'to',
    ]);
    expect(checkWriteRange({ from: '2027-04-02', to: '2027-04-01' }, '2027-03-28').map((r) => r.field)).toEqual(['to']);
    expect(checkWriteRange({ from: '2027-04-02', to: '2027-04-02' }, '2027-03-28')).toEqual([]);
    expect(checkWriteRange({ from: '2027-04-02', to: null }, '2027-03-28')).toEqual([]);
  });
});

describe('update timeslots as a decision (given/when/then over a timeline)', () => {
  // How the event layer will use these pieces: decide draws ids into the event, evolve applies it.
  type Written = { readonly type: 'TimeslotsWritten'; readonly write: TimeslotWrite };
  type Update = { readonly from?: unknown; readonly to?: unknown; readonly weekdays?: unknown };
  const decider = testDecider<Timeline, Update, Written, WriteContext>({
    evolve: (timeline, event) => applyTimeslots(timeline ?? [], event.write),
    decide: (_timeline, command, context) => {
      const slots = checkWeekdays(command.weekdays);
      const write = decideTimeslotWrite(command, slots.ok ? slots.value : [], context);
      throwIfRefused([...(slots.ok ? [] : slots.refusals), ...(write.ok ? [] : write.refusals)]);
      return write.ok ? [{ type: 'TimeslotsWritten', write: write.value }] : [];
    },
  });
  const created: Written = { type: 'TimeslotsWritten', write: { from: '2027-01-01', to: null, timeslots: A } };

  it('given a rota, when timeslots are written from today to a date, then the event carries the range and the timeslots with the ids drawn', () => {
    decider
      .given([created])
      .when(
        {
          from: '2027-03-28',
          to: '2027-04-03',
          weekdays: { sunday: [{ start_time: '22:00', end_time: '06:00', min: 0, ideal: 1, max: 2 }] },
        },
        { today: '2027-03-28', newIds: idSource([7]) },
      )
      .then([
        {
          type: 'TimeslotsWritten',
          write: {
            from: '2027-03-28',
            to: '2027-04-03',
            timeslots: [
              {
                id: 7,
                weekday_start: 'sunday',
                start_time: '22:00',
                weekday_end: 'monday',
                end_time: '06:00',
                min: 0,
                ideal: 1,
                max: 2,
              },
            ],
          },
        },
      ]);
  });

  it('given a rota, when the write starts yesterday and a timeslot is bad, then one refusal names both fields', () => {
    decider
      .given([created])
      .when(
        {
          from: '2027-03-27',
          weekdays: { monday: [{ start_time: '09:00', end_time: '10:00', min: 2, ideal: 1, max: 3 }] },
        },
        { today: '2027-03-28', newIds: idSource([]) },
      )
      .thenThrows(ValidationError, ['weekdays.monday.0.min', 'from']);
  });

  it('given a rota, when every weekday is left empty, then the range is written with no timeslots (closed)', () => {
    decider
      .given([created])
      .when({ from: '2027-04-01', weekdays: {} }, { today: '2027-03-28', newIds: idSource([]) })
      .then([{ type: 'TimeslotsWritten', write: { from: '2027-04-01', to: null, timeslots: [] } }]);
  });
});

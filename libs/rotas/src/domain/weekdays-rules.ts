import { type Checked, checked, overlapRefusals, timeOf } from './pattern-rules.js';
import { type Refusal, refusal, requiredMessage } from './refusals.js';
import {
  byWeekStart,
  clockMinutes,
  isWeekday,
  MAX_TIMESLOTS,
  type Staffing,
  staffingNumberRefusal,
  staffingOrderRefusals,
  WEEKDAYS,
  type Weekday,
  type WeeklyTimeslot,
} from './weekly-timeslots.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The update-timeslots body's `weekdays: { monday: [{ start_time, end_time, min, ideal, max }], … }`
 * as weekly timeslots. A timeslot whose end_time is not after its start_time ends the next day
 * (overnight; equal times: 24 hours, docs/rota-domain.md#overnight taken literally). A weekday
 * omitted, null or empty has no timeslots (the rota is closed that weekday in the range). min,
 * ideal and max are required here (there is no pattern to take them from). Same rules as a
 * pattern otherwise: no overlap, the wrap-around from Sunday included, at most 200 in all. Every
 * refusal is returned, keyed `weekdays.monday.0.end_time`; the timeslots come back in week order.
 */
export function checkWeekdays(weekdays: unknown): Checked<WeeklyTimeslot[]> {
  if (weekdays === undefined || weekdays === null)
    return { ok: false, refusals: [refusal('weekdays', requiredMessage('weekdays'))] };
  if (!isObject(weekdays))
    return {
      ok: false,
      refusals: [refusal('weekdays', 'The weekdays field must be an object keyed by weekday, monday to sunday.')],
    };
  const refusals: Refusal[] = Object.keys(weekdays)
    .filter((key) => !isWeekday(key))
    .map((key) => refusal(`weekdays.${key}`, `The weekdays.${key} field is not a weekday: use monday to sunday.`));
  const days = WEEKDAYS.map((day) => ({ day, items: weekdays[day] }));
  for (const { day, items } of days) {
    if (items !== undefined && items !== null && !Array.isArray(items))
      refusals.push(refusal(`weekdays.${day}`, `The weekdays.${day} field must be an array.`));
  }
  const sent = days.flatMap(({ day, items }) =>
    Array.isArray(items) ? items.map((item: unknown, i) => ({ item, key: `weekdays.${day}.${i}`, day })) : [],
  );
  if (sent.length > MAX_TIMESLOTS)
    return {
      ok: false,
      refusals: [
        ...refusals,
        refusal('weekdays', `The weekdays field must not hold more than ${MAX_TIMESLOTS} timeslots.`),
      ],
    };
  const slots = sent.map(({ item, key, day }) => dayTimeslot(item, key, day, refusals));
  refusals.push(...overlapRefusals(slots, (i) => sent[i]!.key));
  return checked(refusals, () => byWeekStart(slots as WeeklyTimeslot[]));
}

function dayTimeslot(item: unknown, at: string, day: Weekday, refusals: Refusal[]): WeeklyTimeslot | null {
  if (!isObject(item)) {
    refusals.push(refusal(at, `The ${at} field must be an object.`));
    return null;
  }
  const before = refusals.length;
  const [start_time, end_time] = [
    timeOf(item.start_time, `${at}.start_time`, refusals),
    timeOf(item.end_time, `${at}.end_time`, refusals),
  ];
  const numbers = {} as Record<keyof Staffing, number>;
  for (const name of ['min', 'ideal', 'max'] as const) {
    const [field, value] = [`${at}.${name}`, item[name]];
    const wrong =
      value === undefined || value === null
        ? refusal(field, requiredMessage(field))
        : staffingNumberRefusal(value, field);
    if (wrong) refusals.push(wrong);
    else numbers[name] = value as number;
  }
  if (refusals.length > before) return null;
  const wrong = staffingOrderRefusals(numbers, { min: `${at}.min`, ideal: `${at}.ideal`, max: `${at}.max` });
  refusals.push(...wrong);
  if (wrong.length || start_time === null || end_time === null) return null;
  const overnight = clockMinutes(end_time)! <= clockMinutes(start_time)!;
  const weekday_end = overnight ? WEEKDAYS[(WEEKDAYS.indexOf(day) + 1) % 7]! : day;
  return { weekday_start: day, start_time, weekday_end, end_time, ...numbers };
}

import { describe, expect, it } from '@jest/globals';
import {
  checkCloseDates,
  checkEndDate,
  checkRotaDates,
  checkRotaIds,
  checkRotaName,
  closeDates,
  reopenDates,
} from './rota-rules.js';

const TODAY = '2027-03-28';
const fields = (refusals: { field: string }[]) => refusals.map((r) => r.field);

describe('checkRotaName', () => {
  it('given 1 to 255 characters, then it passes; none, blank, 256 or not a string, then refused', () => {
    expect(checkRotaName('A')).toEqual([]);
    expect(checkRotaName('é'.repeat(255))).toEqual([]);
    expect(checkRotaName('😀'.repeat(255))).toEqual([]);
    expect(checkRotaName('a'.repeat(256))).toEqual([
      { field: 'data.name', message: 'The data.name field must not be longer than 255 characters.' },
    ]);
    expect(checkRotaName('')).toEqual([{ field: 'data.name', message: 'The data.name field is required.' }]);
    expect(
      fields([...checkRotaName('   '), ...checkRotaName(undefined, 'name'), ...checkRotaName(42, 'name')]),
    ).toEqual(['data.name', 'name', 'name']);
  });
});

describe('checkRotaIds', () => {
  it('given 1 to 500 positive integers, then they pass; none, 501 or bad items, then refused', () => {
    expect(checkRotaIds([1])).toEqual([]);
    expect(checkRotaIds(Array.from({ length: 500 }, (_, i) => i + 1))).toEqual([]);
    expect(fields(checkRotaIds(Array.from({ length: 501 }, (_, i) => i + 1)))).toEqual(['rota_ids']);
    expect(fields(checkRotaIds([]))).toEqual(['rota_ids']);
    expect(fields(checkRotaIds(undefined))).toEqual(['rota_ids']);
    expect(fields(checkRotaIds([1, 0, '3', 2.5]))).toEqual(['rota_ids.1', 'rota_ids.2', 'rota_ids.3']);
  });
});

describe('checkRotaDates (create)', () => {
  it('given an end null, equal to or after the start, then it passes; before it, then the end is refused', () => {
    expect(checkRotaDates('2027-04-01', null)).toEqual([]);
    expect(checkRotaDates('2027-04-01', '2027-04-01')).toEqual([]);
    expect(checkRotaDates('2027-04-01', '2027-03-31')).toEqual([
      { field: 'end_date', message: 'The end_date field must be a date on or after start_date.' },
    ]);
    expect(fields(checkRotaDates(undefined, '2027-02-30'))).toEqual(['start_date', 'end_date']);
  });
});

describe('checkEndDate (bulk end_date)', () => {
  const rotas = [
    { rota_id: 1, start_date: '2027-01-01', archived: false },
    { rota_id: 2, start_date: '2027-04-10', archived: true },
    { rota_id: 3, start_date: '2027-03-01', archived: false },
  ];

  it("given a date today or later and not before any live rota's start, then the live rotas take it and the archived ones are skipped", () => {
    expect(checkEndDate(TODAY, rotas, TODAY)).toEqual({
      ok: true,
      value: {
        end: [
          { rota_id: 1, end_date: TODAY },
          { rota_id: 3, end_date: TODAY },
        ],
        skipped: [2],
      },
    });
  });

  it('given a date before today, then refused', () => {
    expect(checkEndDate('2027-03-27', rotas, TODAY)).toEqual({
      ok: false,
      refusals: [{ field: 'data.date', message: 'The data.date field must be today (2027-03-28) or later.' }],
    });
  });

  it("given a date before a live rota's start, then refused naming that rota; an archived rota's start does not count", () => {
    const later = [...rotas, { rota_id: 4, start_date: '2027-05-01', archived: false }];
    expect(checkEndDate('2027-04-15', later, TODAY)).toEqual({
      ok: false,
      refusals: [
        { field: 'data.date', message: 'The data.date field must not be before the start of rota 4 (2027-05-01).' },
      ],
    });
    expect(checkEndDate('2027-04-05', rotas, TODAY).ok).toBe(true);
  });

  it('given no date or a malformed one, then refused', () => {
    expect(checkEndDate(undefined, rotas, TODAY).ok).toBe(false);
    expect(checkEndDate('2027-02-29', rotas, TODAY).ok).toBe(false);
  });
});

describe('checkCloseDates (bulk close and reopen)', () => {
  it('given dates today or later, then they come back once each, in order', () => {
    expect(checkCloseDates(['2027-04-02', TODAY, '2027-04-02'], TODAY)).toEqual({
      ok: true,
      value: [TODAY, '2027-04-02'],
    });
  });

  it('given a past date or a malformed one, then each is refused under its index', () => {
    expect(checkCloseDates([TODAY, '2027-03-27', 'tomorrow'], TODAY)).toEqual({
      ok: false,
      refusals: [
        { field: 'data.dates.1', message: 'The data.dates.1 field must be today (2027-03-28) or later.' },
        { field: 'data.dates.2', message: 'The data.dates.2 field must be a date (YYYY-MM-DD).' },
      ],
    });
  });

  it('given none, 367 or no array, then the list is refused; 366 pass', () => {
    const days = (n: number) =>
      Array.from({ length: n }, (_, i) => new Date(Date.UTC(2027, 2, 28 + i)).toISOString().slice(0, 10));
    expect(checkCloseDates(days(366), TODAY).ok).toBe(true);
    for (const bad of [days(367), [], undefined, '2027-04-01'])
      expect(checkCloseDates(bad, TODAY)).toMatchObject({ ok: false, refusals: [{ field: 'data.dates' }] });
  });

  it('given closed dates, when dates are closed and reopened, then the set follows; reopening an open date changes nothing', () => {
    const closed = closeDates(new Set(['2027-04-01']), ['2027-04-02', '2027-04-01']);
    expect([...closed].sort()).toEqual(['2027-04-01', '2027-04-02']);
    expect([...reopenDates(closed, ['2027-04-01', '2027-05-01'])]).toEqual(['2027-04-02']);
  });
});

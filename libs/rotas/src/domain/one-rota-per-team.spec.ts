import { describe, expect, it } from '@jest/globals';
import { oneRotaPerTeam, type TeamRota } from './one-rota-per-team.js';

const rota = (rota_id: number, start_date: string, end_date: string | null, archived = false): TeamRota => ({
  rota_id,
  start_date,
  end_date,
  archived,
});
const NEW_START = '2027-04-01';

describe('one rota per team per day', () => {
  it('given no rota, when a rota starts, then nothing is ended', () => {
    expect(oneRotaPerTeam([], NEW_START)).toEqual({ ok: true, value: { end: [] } });
  });

  it('given a running rota with no end, when a new one starts, then the running one ends the day before', () => {
    expect(oneRotaPerTeam([rota(1, '2027-01-01', null)], NEW_START)).toEqual({
      ok: true,
      value: { end: [{ rota_id: 1, end_date: '2027-03-31' }] },
    });
  });

  it('given a running rota ending on the new start date or later, when a new one starts, then it is ended the day before', () => {
    expect(oneRotaPerTeam([rota(1, '2027-01-01', '2027-04-01')], NEW_START)).toEqual({
      ok: true,
      value: { end: [{ rota_id: 1, end_date: '2027-03-31' }] },
    });
    expect(oneRotaPerTeam([rota(1, '2027-01-01', '2027-12-31')], NEW_START)).toEqual({
      ok: true,
      value: { end: [{ rota_id: 1, end_date: '2027-03-31' }] },
    });
  });

  it('given a rota that started the day before, when a new one starts, then the old one is left one day long', () => {
    expect(oneRotaPerTeam([rota(1, '2027-03-31', null)], NEW_START)).toEqual({
      ok: true,
      value: { end: [{ rota_id: 1, end_date: '2027-03-31' }] },
    });
  });

  it('given a rota that ended before the new start, when a new one starts, then it is left alone', () => {
    expect(oneRotaPerTeam([rota(1, '2027-01-01', '2027-03-31')], NEW_START)).toEqual({ ok: true, value: { end: [] } });
  });

  it('given a rota starting on the new start date, when a new one starts, then it is a clash naming team', () => {
    const result = oneRotaPerTeam([rota(1, NEW_START, null)], NEW_START);
    expect(result).toEqual({
      ok: false,
      refusals: [
        {
          field: 'team',
          message:
            "The team has rota 1 starting on 2027-04-01, on or after the new rota's start (2027-04-01): a team has one rota a day.",
        },
      ],
    });
  });

  it('given a rota in the future, when a new one starts before it, then it is a clash even if the new rota ends first', () => {
    expect(oneRotaPerTeam([rota(1, '2027-09-01', null)], NEW_START).ok).toBe(false);
  });

  it('given archived rotas, running or in the future, when a new one starts, then they neither clash nor end', () => {
    expect(oneRotaPerTeam([rota(1, '2027-01-01', null, true), rota(2, '2027-09-01', null, true)], NEW_START)).toEqual({
      ok: true,
      value: { end: [] },
    });
  });

  it('given several rotas (past, running, archived), when a new one starts, then only the running one ends', () => {
    const rotas = [
      rota(5, '2027-02-01', null),
      rota(2, '2026-01-01', '2026-12-31'),
      rota(3, '2027-01-01', '2027-01-31'),
      rota(9, '2027-06-01', null, true),
    ];
    expect(oneRotaPerTeam(rotas, NEW_START)).toEqual({
      ok: true,
      value: { end: [{ rota_id: 5, end_date: '2027-03-31' }] },
    });
  });

  it('given a running rota and a future one, when a new one starts, then the clash wins and nothing is ended', () => {
    const result = oneRotaPerTeam([rota(1, '2027-01-01', null), rota(2, '2027-05-01', null)], NEW_START, 'team.1.id');
    expect(result.ok ? [] : result.refusals.map((r) => r.field)).toEqual(['team.1.id']);
  });
});

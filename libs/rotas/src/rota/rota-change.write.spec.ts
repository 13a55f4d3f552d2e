import { describe, expect, it } from '@jest/globals';
import type { Planning, StreamReads, WriteQuery } from '#app/event-store';
import { evolve as evolveShift, type ShiftState } from '../booking/shift.js';
import { gateOf, type RotaEvent, streamOf } from '../rotas.events.js';
import type { MisfitRows } from './misfits.js';
import { movesCalendars, type RotaChange, rotaChangeWrite, rotaEditWrite } from './rota-change.write.js';
import type { CreateEvent, TeamsAndRotas } from './rota-decisions.js';
import { rotaSeven, rotaSevenClosedOn as closedOn } from './rota.fixtures.js';

const ZONE = 'Europe/London';
// Monday 16 November 2026, midnight (GMT: wall clock = UTC).
const NOW = Date.parse('2026-11-16T00:00:00Z');
const rota = rotaSeven();
const renamed: RotaEvent = { type: 'rotas.RotaChanged', data: { id: 7, organisationId: 1, changes: { name: 'New' } } };
const booked = (id: number, date: string): ShiftState =>
  evolveShift(null, {
    type: 'rotas.ShiftBooked',
    data: {
      id,
      organisationId: 1,
      rotaId: 7,
      teamId: 3,
      userId: 100 + id,
      seriesId: null,
      date,
      start: `${date}T10:00:00.000Z`,
      end: `${date}T12:00:00.000Z`,
      startWall: `${date} 10:00`,
      endWall: `${date} 12:00`,
    },
  })!;
const row = (id: number, date: string) => ({
  id,
  rotaId: 7,
  date,
  start: Date.parse(`${date}T10:00:00Z`),
  end: Date.parse(`${date}T12:00:00Z`),
});
const ROWS: MisfitRows = { shifts: [row(1, '2026-11-23'), row(2, '2026-11-30')], series: [] };

/** A change whose decision closes 23 November on rota 7 when it sees the rota, and records what it saw. */
const closing = (seen: TeamsAndRotas[] = []): RotaChange => ({
  zone: ZONE,
  rotaIds: [7],
  decide: (state) => {
    seen.push(state);
    return state.rotas.has(7) ? [renamed, closedOn('2026-11-23')] : [];
  },
});
/** A planning phase that reads the states given by name (none: null). */
const planning = (states: Record<string, unknown>): Planning => ({
  now: NOW,
  read: async <R extends StreamReads>(streams: R) =>
    Object.fromEntries(Object.keys(streams).map((name) => [name, states[name] ?? null])) as never,
});
const noDb: WriteQuery = { query: async () => [] };

describe('movesCalendars', () => {
  it('given a change that moves no calendar, or one over no existing rota, then it takes the plain write', () => {
    expect(movesCalendars(closing())).toBe(true);
    expect(movesCalendars({ ...closing(), movesCalendars: false })).toBe(false);
    expect(movesCalendars({ ...closing(), rotaIds: [] })).toBe(false);
  });
});

describe('rotaEditWrite', () => {
  const change: RotaChange = {
    zone: ZONE,
    rotaIds: [7, 8],
    teamIds: [3],
    newRotaIds: [9],
    movesCalendars: false,
    decide: ({ rotas, teams }): CreateEvent[] => [
      { type: 'rotas.TeamRotaAdded', data: { teamId: 3, organisationId: 1, rotaId: 9, startDate: '2026-12-01' } },
      ...(rotas.has(7) && teams.has(3) ? [renamed] : []),
    ],
  };
  const write = rotaEditWrite(change);

  it('given existing rotas, a team and a new rota, then the rotas are read by id, the team by name and the new rota not at all', () => {
    const streams = write.streams(undefined, undefined);
    expect(streams[7].streamId).toBe(streamOf.rota(7));
    expect(streams[8].streamId).toBe(streamOf.rota(8));
    expect(streams['team 3'].streamId).toBe(streamOf.team(3));
    expect(streams['new 9']).toEqual({ streamId: streamOf.rota(9), expect: 'no_stream' });
  });

  it('given the states read (rota 8 has none), then the decision sees the rotas and teams that exist, and its events go to their streams', () => {
    const team = { teamId: 3, organisationId: 1, rotaIds: [7] };
    const states = { 7: rota, 8: null, 'team 3': team, 'new 9': null } as never;
    const events = write.decide(states, { plan: undefined, facts: undefined, now: NOW });
    expect(events.map((e) => [e.streamId, e.events.map((x) => x.type)])).toEqual([
      [streamOf.team(3), ['rotas.TeamRotaAdded']],
      [streamOf.rota(7), ['rotas.RotaChanged']],
    ]);
  });
});

describe('rotaChangeWrite', () => {
  const read = async (_db: WriteQuery, rotaIds: readonly number[], now: number) => {
    expect([rotaIds, now]).toEqual([[7], NOW]);
    return ROWS;
  };

  it('given a close among the decided events, then the plan holds that one calendar change (not the rename) at the attempt’s instant', async () => {
    const plan = await rotaChangeWrite(closing(), read).plan!(planning({ 7: rota }));
    expect(plan.now).toBe(NOW);
    expect(plan.changes.map((c) => [c.command.change, c.command.effectiveFrom])).toEqual([
      ['rotas.RotaClosed', '2026-11-23'],
    ]);
  });

  it('given the rotas it changes, then it advances their calendar gates and reads their rows at the plan’s instant', async () => {
    const write = rotaChangeWrite({ ...closing(), rotaIds: [7] }, read);
    const plan = await write.plan!(planning({ 7: rota }));
    expect(write.gates!(plan)).toEqual({ advance: [gateOf.rotaCalendar(7)] });
    expect(await write.facts!(noDb, plan)).toBe(ROWS);
  });

  it('given a row on the closed day and one after, then only the first shift’s stream is read beside the rota', async () => {
    const write = rotaChangeWrite(closing(), read);
    const plan = await write.plan!(planning({ 7: rota }));
    const streams = write.streams(plan, ROWS);
    expect(Object.keys(streams).sort()).toEqual(['7', 'shift 1']);
    expect(streams['shift 1'].streamId).toBe(streamOf.shift(1));
  });

  it('given the rota unchanged since the plan, then the plan holds; given it closed meanwhile, then it does not (planned again)', async () => {
    const write = rotaChangeWrite(closing(), read);
    const plan = await write.plan!(planning({ 7: rota }));
    const given = { plan, facts: ROWS, now: NOW };
    expect(write.holds!({ 7: rota } as never, given)).toBe(true);
    const closedMeanwhile = { ...rota, closedDates: ['2026-11-23'] };
    expect(write.holds!({ 7: closedMeanwhile } as never, given)).toBe(false);
  });

  it('given the shift on the closed day, then the change goes first and the shift is cancelled on its own stream', async () => {
    const write = rotaChangeWrite(closing(), read);
    const plan = await write.plan!(planning({ 7: rota }));
    const states = { 7: rota, 'shift 1': booked(1, '2026-11-23') } as never;
    const events = write.decide(states, { plan, facts: ROWS, now: NOW });
    expect(events.map((e) => [e.streamId, e.events.map((x) => x.type)])).toEqual([
      [streamOf.rota(7), ['rotas.RotaChanged', 'rotas.RotaClosed']],
      [streamOf.shift(1), ['rotas.ShiftCancelled']],
    ]);
  });

  it('given a decision with no calendar change, then it appends only its own events', async () => {
    const write = rotaChangeWrite({ ...closing(), decide: () => [renamed] }, read);
    const plan = await write.plan!(planning({ 7: rota }));
    expect(plan.changes).toEqual([]);
    const events = write.decide({ 7: rota } as never, { plan, facts: ROWS, now: NOW });
    expect(events).toEqual([{ streamId: streamOf.rota(7), events: [renamed] }]);
  });
});

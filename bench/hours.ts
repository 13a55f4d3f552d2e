/**
 * The volunteer hours report (`BENCH_ONLY=hours`, docs/rota-domain.md#volunteer-hours): its one
 * aggregate statement over the read model `rota_volunteer_hours`, beside the plain SELECT of the same
 * rows (what a report summing in Node would have to fetch first).
 *
 * Set-up (not timed): a scratch database with the application's migrations; SHIFTS past shifts of
 * one organisation over the last 365 days (500 users, 40 rotas of 20 teams, 60–270 minutes each,
 * 60 % attended, 20 % no-show, 20 % unrecorded), inserted directly into the projection table, and
 * as many of another organisation beside them (the table is multi-tenant); then ANALYZE.
 *
 * Timed, in one run, alternating, after WARM_UP runs of each: the report's statement as the route
 * builds it (hoursStatement: the year, every team, grouped by user, then by team and by rota) and
 * the last 30 days grouped by user (the index's range), and the raw statement (the year's WHERE,
 * the rows themselves), ROUNDS runs each on one `pg` client;
 * medians and the 90th percentile, and the report's plan (EXPLAIN ANALYZE, top lines).
 *
 *   BENCH_HOURS_SHIFTS   shifts of the organisation measured (default 100000; the other has as many)
 *   BENCH_HOURS_ROUNDS   timed runs of each statement (default 30)
 *   BENCH_HOURS_KEEP     1: leave the scratch database uvol_bench_hours behind
 */
import type pg from 'pg';
import { tenantScope, tenantSql } from '#app/platform';
import { hoursStatement, type HoursGrouping, type HoursRequest } from '#app/rotas';
import { connect, createScratch, dropScratch, openDataSource, secondsSince } from './db.js';

const DB = 'uvol_bench_hours';
const env = process.env;
const int = (value: string | undefined, fallback: number) => (value ? Number(value.replace(/_/g, '')) : fallback);

export interface HoursFigures {
  shifts: number;
  groups: Record<HoursGrouping, number>;
  rawRows: number;
  /** Milliseconds of each run. */
  runs: Record<'user' | 'team' | 'rota' | 'month' | 'raw', number[]>;
  /** Groups of the last 30 days' report. */
  monthGroups: number;
  plan: string[];
  setupSeconds: number;
}

/** `count` shifts of organisation `org`, ids from `firstId`, one a day-and-slot over the year before today. */
const insertShifts = (org: number, firstId: number, count: number) => `
  INSERT INTO rota_volunteer_hours (shift_id, organisation_id, team_id, rota_id, user_id, date, starts_at,
      booked_minutes, attendance_status, attended_minutes)
  SELECT ${firstId} + i, ${org}, ${org * 100} + i % 20, ${org * 1000} + i % 40, ${org * 10000} + (i * 7919) % 500, d,
         (d + time '08:00' + (i % 10) * interval '1 hour') AT TIME ZONE 'Europe/London',
         60 + (i % 8) * 30,
         CASE WHEN i % 10 < 6 THEN 'attended' WHEN i % 10 < 8 THEN 'no_show' END,
         CASE WHEN i % 10 < 6 THEN 60 + (i % 8) * 30 - (i % 3) * 5 WHEN i % 10 < 8 THEN 0 END
    FROM generate_series(0, ${count - 1}) i, LATERAL (SELECT current_date - 365 + i % 365 AS d) day`;

async function timed(client: pg.Client, q: { text: string; values: unknown[] }): Promise<[number, number]> {
  const start = performance.now();
  const result = await client.query(q.text, q.values);
  return [performance.now() - start, result.rowCount ?? result.rows.length];
}

export async function benchHours(log: (line: string) => void): Promise<HoursFigures> {
  const shifts = int(env.BENCH_HOURS_SHIFTS, 100_000);
  const rounds = int(env.BENCH_HOURS_ROUNDS, 30);
  const url = await createScratch(DB);
  const ds = await openDataSource(url, 2);
  const client = await connect(url);
  try {
    const setup = performance.now();
    await ds.query(insertShifts(1, 1, shifts));
    await ds.query(insertShifts(2, 1 + shifts, shifts));
    await ds.query('ANALYZE rota_volunteer_hours');
    const setupSeconds = secondsSince(setup);
    log(`${(2 * shifts).toLocaleString('en-US')} rows inserted and analysed in ${setupSeconds.toFixed(1)} s`);

    const [{ today }] = (await client.query(`SELECT current_date::text AS today`)).rows as { today: string }[];
    const [{ from }] = (await client.query(`SELECT (current_date - 365)::text AS from`)).rows as { from: string }[];
    const tenant = { organisationId: 1 };
    const teams = Array.from({ length: 20 }, (_, i) => 100 + i);
    const request = (groupBy: HoursGrouping): HoursRequest => ({ from, to: today, now: new Date(), teams, groupBy });
    const report = (groupBy: HoursGrouping) => hoursStatement(tenant, request(groupBy));
    const r = request('user');
    const raw = tenantSql(tenant)`SELECT h.shift_id, h.user_id, h.team_id, h.rota_id, h.booked_minutes,
        h.attendance_status, h.attended_minutes
       FROM rota_volunteer_hours h
      WHERE ${tenantScope('h')} AND h.date BETWEEN ${r.from}::date AND ${r.to}::date
        AND h.starts_at <= ${r.now.toISOString()}::timestamptz AND h.team_id = ANY(${r.teams}::bigint[])`;
    const [{ month }] = (await client.query(`SELECT (current_date - 30)::text AS month`)).rows as { month: string }[];
    const lastMonth = hoursStatement(tenant, { ...request('user'), from: month });
    const statements = {
      user: report('user'),
      team: report('team'),
      rota: report('rota'),
      month: lastMonth,
      raw,
    } as const;
    const names = Object.keys(statements) as (keyof typeof statements)[];

    const counts = {} as Record<keyof typeof statements, number>;
    for (let i = 0; i < 3; i++) for (const name of names) counts[name] = (await timed(client, statements[name]))[1];
    const runs = { user: [], team: [], rota: [], month: [], raw: [] } as HoursFigures['runs'];
    for (let i = 0; i < rounds; i++) {
      // Alternate the order so neither side always runs on a warmer cache.
      for (const name of i % 2 ? [...names].reverse() : names)
        runs[name].push((await timed(client, statements[name]))[0]);
    }
    const q = statements.user;
    const plan = (await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${q.text}`, q.values)).rows.map(
      (row: Record<string, string>) => row['QUERY PLAN']!,
    );
    return {
      shifts,
      groups: { user: counts.user, team: counts.team, rota: counts.rota },
      monthGroups: counts.month,
      rawRows: counts.raw,
      runs,
      plan,
      setupSeconds,
    };
  } finally {
    await client.end();
    await ds.destroy();
    if (env.BENCH_HOURS_KEEP !== '1') await dropScratch(DB);
  }
}

/**
 * Issue 32 (`BENCH_ONLY=anonymise npm run bench`): anonymising one user who has a long history,
 * timed as `AnonymiseUsersCommand` through the command bus (what the route and the CLI answer
 * after), beside the event store appending as many events as the anonymisation appended, in one
 * transaction, in the same process, database and minute.
 *
 * Set-up (not timed), per round: one volunteer with BENCH_ANONYMISE_SHIFTS shifts on one rota
 * (mostly past, four a day back from yesterday; BENCH_ANONYMISE_FUTURE of them from tomorrow on, which
 * the anonymisation cancels), booked by a manager through `POST /api/rota/shifts` in bulk bodies of
 * 100, and BENCH_ANONYMISE_EXPENSES expenses with a description through `POST /api/expenses` as the
 * volunteer (their descriptions are sealed in the log with the volunteer's key). No attachments and
 * no series: the write appends identity.UserAnonymised and one rotas.ShiftCancelled per future shift,
 * and the inline projections blank the past shifts' attendance notes and the expenses' descriptions
 * (two UPDATEs by user id) and the key is destroyed. The app is ApiModule (no worker in the process,
 * so no reactor competes with the timed span).
 *
 * Each round anonymises its own user (an anonymisation happens once), then appends; rounds
 * alternate the two, after one untimed append of the same size (warm-up). The figure is the median
 * round's ratio. The statements the anonymisation sends are counted by text (bench/shifts.ts's tally).
 *
 *   BENCH_ANONYMISE_SHIFTS    shifts of the user (default 2000)
 *   BENCH_ANONYMISE_FUTURE    of which not yet started (default 200)
 *   BENCH_ANONYMISE_EXPENSES  expenses of the user (default 500)
 *   BENCH_ANONYMISE_ROUNDS    users anonymised, one a round (default 3)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import { DataSource } from 'typeorm';
import { EventStore, systemActor } from '#app/event-store';
import { ProvisionCommand } from '#app/identity';
import { createHttpApp, loadConfig, todayIn } from '#app/platform';
import { AnonymiseUsersCommand } from '#app/privacy';
import { ApiModule } from '../apps/api/src/api.module.js';
import { createScratch, dropScratch, secondsSince } from './db.js';
import { EVENT_TYPES, eventData, eventMetadata } from './fixtures.js';
import { storeInternals } from './internals.js';
import { created, everyDayPattern, PASSWORD, StatementTally, type Tallied, tokenFor } from './shifts.js';

const DB = 'uvol_bench_anonymise';
const ZONE = 'Europe/London';
const env = process.env;
const SHIFTS = Number(env.BENCH_ANONYMISE_SHIFTS ?? 2000);
const FUTURE = Number(env.BENCH_ANONYMISE_FUTURE ?? 200);
const EXPENSES = Number(env.BENCH_ANONYMISE_EXPENSES ?? 500);
const ROUNDS = Number(env.BENCH_ANONYMISE_ROUNDS ?? 3);
const PER_DAY = 4;

const plusDays = (date: string, n: number) => DateTime.fromISO(date, { zone: 'utc' }).plus({ days: n }).toISODate()!;
const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;

export interface AnonymiseRound {
  /** The command's answer, seconds. */
  readonly seconds: number;
  /** Events the anonymisation appended (global positions after it). */
  readonly events: number;
  /** As many events (about 330 bytes of JSON each), one a stream, appended in one transaction by the store alone. */
  readonly appendSeconds: number;
  /** Rows it changed: shifts cancelled, expenses left with a description. */
  readonly cancelled: number;
  readonly describedLeft: number;
  readonly statements: Tallied[];
}

export interface AnonymiseFigures {
  readonly shifts: number;
  readonly future: number;
  readonly expenses: number;
  readonly seedSeconds: number;
  readonly rounds: AnonymiseRound[];
}

/** An organisation, a manager, ROUNDS volunteers who may record expenses, a rota from long ago. */
async function setUp(app: NestFastifyApplication) {
  const base = await app.getUrl();
  const org = await app.get(CommandBus).execute(
    new ProvisionCommand({
      organisation: { name: 'Bench', slug: 'bench', timezone: ZONE },
      role_profiles: [{ key: 'p', name: 'Volunteer' }],
      teams: [{ key: 'shop', name: 'Shop' }],
      users: [
        {
          key: 'boss',
          email: 'boss@anonymise.bench',
          password: PASSWORD,
          display_name: 'Boss',
          permissions: ['manage-rotas', 'edit-expense-settings', 'create-expenses'],
          roles: [{ team: 'shop', role_profile: 'p' }],
        },
        ...Array.from({ length: ROUNDS }, (_, i) => ({
          key: `v${i}`,
          email: `v${i}@anonymise.bench`,
          password: PASSWORD,
          display_name: `Volunteer ${i}`,
          permissions: ['create-expenses'],
          roles: [{ team: 'shop', role_profile: 'p' }],
        })),
      ],
    }),
  );
  const token = await tokenFor(base, 'boss@anonymise.bench');
  const patternId = await everyDayPattern(base, token, 1000);
  const today = todayIn(ZONE);
  const pastDays = Math.ceil((SHIFTS - FUTURE) / PER_DAY);
  const rota = await created(
    base,
    '/api/rotas',
    { name: 'Shop', start_date: plusDays(today, -pastDays - 1), pattern_id: patternId, team: [{ id: org.teams.shop }] },
    token,
  );
  const rotaId = (rota.data as { id: number }[])[0]!.id;
  const type = await created(base, '/api/expenses/types', { name: 'Travel', position: 1 }, token);
  return {
    base,
    token,
    rotaId,
    today,
    typeId: Number((type.data as { id?: number } | undefined)?.id ?? type.id),
    userIds: Array.from({ length: ROUNDS }, (_, i) => org.users[`v${i}`] as number),
  };
}

type World = Awaited<ReturnType<typeof setUp>>;

/** The user's shifts (past ones four a day back from yesterday, future ones from tomorrow) and expenses. */
async function seed(w: World, userIndex: number): Promise<void> {
  const userId = w.userIds[userIndex]!;
  const items: unknown[] = [];
  const shift = (date: string, k: number) => ({
    rota: { id: w.rotaId },
    user: { id: userId },
    start_datetime: `${date} ${hh(8 + 3 * k)}`,
    end_datetime: `${date} ${hh(9 + 3 * k)}`,
  });
  for (let n = 0; n < SHIFTS - FUTURE; n++)
    items.push(shift(plusDays(w.today, -1 - Math.floor(n / PER_DAY)), n % PER_DAY));
  for (let n = 0; n < FUTURE; n++) items.push(shift(plusDays(w.today, 1 + Math.floor(n / PER_DAY)), n % PER_DAY));
  for (let k = 0; k < items.length; k += 100)
    await created(w.base, '/api/rota/shifts', { shifts: items.slice(k, k + 100) }, w.token);
  const token = await tokenFor(w.base, `v${userIndex}@anonymise.bench`);
  let next = 0;
  const writer = async () => {
    for (let n = next++; n < EXPENSES; n = next++)
      await created(
        w.base,
        '/api/expenses',
        {
          amount: 4.2 + n,
          description: `Bus to the shop and back, day ${n}, with a receipt from the driver`,
          date: plusDays(w.today, -1 - (n % 80)),
          type: { id: w.typeId },
        },
        token,
      );
  };
  await Promise.all(Array.from({ length: 8 }, writer));
}

const lastPosition = async (ds: DataSource): Promise<number> =>
  Number((await ds.query(`SELECT coalesce(max(position), 0) AS n FROM events`))[0].n);
const eventsAfter = async (ds: DataSource, position: number): Promise<number> =>
  Number((await ds.query(`SELECT count(*)::int AS n FROM events WHERE position > $1`, [position]))[0].n);

export async function benchAnonymise(log: (line: string) => void = () => undefined): Promise<AnonymiseFigures> {
  const url = await createScratch(DB);
  const dataDir = mkdtempSync(join(tmpdir(), 'uvol-bench-anonymise-'));
  const config = loadConfig({
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_ADDRESS: '100000',
  });
  const app = await createHttpApp(ApiModule.forRoot(config), { logger: false });
  app.useLogger(false);
  try {
    await app.listen(0, '127.0.0.1');
    const w = await setUp(app);
    const ds = app.get(DataSource);
    const seedStarted = performance.now();
    for (let i = 0; i < ROUNDS; i++) await seed(w, i);
    const seedSeconds = secondsSince(seedStarted);
    await ds.query('ANALYZE');
    const [seeded] = await ds.query(
      `SELECT (SELECT count(*)::int FROM rota_shifts WHERE user_id = ANY($1::bigint[])) AS shifts,
              (SELECT count(*)::int FROM expenses WHERE user_id = ANY($1::bigint[])) AS expenses`,
      [w.userIds],
    );
    if (seeded.shifts !== ROUNDS * SHIFTS || seeded.expenses !== ROUNDS * EXPENSES)
      throw new Error(
        `seeded ${seeded.shifts} shifts and ${seeded.expenses} expenses, not ${ROUNDS} × ${SHIFTS} and ${EXPENSES}`,
      );
    log(
      `seeded ${ROUNDS} users × ${SHIFTS} shifts (${FUTURE} future), ${EXPENSES} expenses in ${seedSeconds.toFixed(1)} s`,
    );
    const internal = storeInternals(app.get(EventStore));
    const floor = (label: string, events: number) =>
      internal.transaction((tx) =>
        internal.append(
          tx,
          Array.from({ length: events }, (_, k) => ({
            streamId: `bench.Claim-anonymise-floor-${label}-${k}`,
            expectedVersion: 'no_stream' as const,
            events: [{ type: EVENT_TYPES[k % EVENT_TYPES.length]!, data: eventData(k) }],
          })),
          eventMetadata(`anonymise-floor-${label}`),
        ),
      );
    await floor('warm-up', FUTURE + 1);
    const rounds: AnonymiseRound[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const userId = w.userIds[i]!;
      const before = await lastPosition(ds);
      await ds.query('CHECKPOINT');
      global.gc?.();
      const tally = new StatementTally();
      const started = performance.now();
      const answer = await app
        .get(CommandBus)
        .execute(
          new AnonymiseUsersCommand({ userIds: [userId], requestedBy: 'operator', actor: systemActor('bench') }),
        );
      const seconds = secondsSince(started);
      const statements = tally.stop();
      if (answer.length !== 1) throw new Error(`anonymised ${answer.length} users, not 1`);
      const events = await eventsAfter(ds, before);
      const [{ cancelled }] = await ds.query(
        `SELECT count(*)::int AS cancelled FROM rota_shifts WHERE user_id = $1 AND status = 'cancelled'`,
        [userId],
      );
      const [{ left }] = await ds.query(
        `SELECT count(*)::int AS left FROM expenses WHERE user_id = $1 AND description <> ''`,
        [userId],
      );
      await ds.query('CHECKPOINT');
      const appendStarted = performance.now();
      await floor(String(i), events);
      const appendSeconds = secondsSince(appendStarted);
      log(
        `round ${i + 1}: anonymise ${seconds.toFixed(3)} s (${events} events, ${cancelled} shifts cancelled, ` +
          `${left} descriptions left), append alone ${appendSeconds.toFixed(3)} s`,
      );
      rounds.push({ seconds, events, appendSeconds, cancelled, describedLeft: left, statements });
    }
    return { shifts: SHIFTS, future: FUTURE, expenses: EXPENSES, seedSeconds, rounds };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    await dropScratch(DB);
  }
}

export function anonymiseReport(f: AnonymiseFigures): string {
  const lines = [
    `\nAnonymiseUsersCommand: one user with ${f.shifts} shifts (${f.future} not started) and ${f.expenses} expenses ` +
      `(seeding ${f.rounds.length} users took ${f.seedSeconds.toFixed(0)} s)`,
  ];
  f.rounds.forEach((r, i) => {
    const count = r.statements.reduce((n, t) => n + t.count, 0);
    const ms = r.statements.reduce((n, t) => n + t.ms, 0);
    lines.push(
      `  round ${i + 1}: answer ${(r.seconds * 1000).toFixed(0)} ms, ${r.events} events appended, ${r.cancelled} shifts cancelled, ` +
        `${r.describedLeft} descriptions left; the store appending ${r.events} events alone ${(r.appendSeconds * 1000).toFixed(0)} ms; ` +
        `ratio ${(r.seconds / r.appendSeconds).toFixed(1)}`,
      `    ${count} statements, ${ms.toFixed(0)} ms waiting on them; the costliest:`,
      ...r.statements.slice(0, 8).map((t) => `      ${t.count}× ${t.ms.toFixed(1)} ms  ${t.text}`),
    );
  });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ratios = f.rounds.map((r) => r.seconds / r.appendSeconds);
  const mid = f.rounds[ratios.indexOf(median(ratios))]!;
  lines.push(
    `anonymise: ${f.shifts} shifts, ${f.expenses} expenses, median round: answer ${(mid.seconds * 1000).toFixed(0)} ms, ` +
      `append alone ${(mid.appendSeconds * 1000).toFixed(0)} ms (${mid.events} events), ratio ${median(ratios).toFixed(1)}\n`,
  );
  return lines.join('\n');
}

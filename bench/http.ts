/**
 * The HTTP benchmarks: log-in round trip and argon2 cost (identity), POST and list of expenses
 * (expenses), and one expense write four ways without HTTP (writes). `npm run bench` runs them
 * after the event-store benchmarks; alone: `node dist/bench/http.js` (BENCH_ONLY=login|writes|expenses;
 * DATABASE_URL: the admin URL for the scratch databases).
 */
import { benchExpenses } from './expenses.js';
import { benchLogin } from './login.js';
import { benchWritePaths } from './write-paths.js';

const ms = (n: number) => `${n.toFixed(1)} ms`;
const only = process.env.BENCH_ONLY;

if (!only || only === 'login') {
  const login = await benchLogin(200);
  process.stdout.write(
    `\nLog-in round trip (pre-auth-token + token over HTTP, no second factor, ${login.roundTrip.runs} sequential)\n` +
      `  p50 ${ms(login.roundTrip.p50)}   p99 ${ms(login.roundTrip.p99)}   ${login.roundTrip.perSecond.toFixed(1)} log-ins/s\n` +
      `argon2id verification (46 MiB, t=2, p=1; goal 50–250 ms), ${login.argon2.runs} runs\n` +
      `  p50 ${ms(login.argon2.p50)}   p99 ${ms(login.argon2.p99)}\n`,
  );
}
if (!only || only === 'writes') {
  const rows = await benchWritePaths(Number(process.env.BENCH_WRITES ?? 4000));
  process.stdout.write(
    `\nOne expense write, 16 concurrent writers, no HTTP (CPU per write: this process / the whole machine)\n` +
      rows.map((r) => `  ${r.name.padEnd(72)} ${r.perSecond.toFixed(0).padStart(6)} /s   node ${r.nodeUs.toFixed(0).padStart(4)} µs   machine ${r.machineUs.toFixed(0).padStart(5)} µs`).join('\n') + '\n',
  );
}
if (!only || only === 'expenses') {
  const e = await benchExpenses(Number(process.env.BENCH_SECONDS ?? 10));
  const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)}%`;
  process.stdout.write(
    `\nPOST /api/expenses, 32 connections, ${e.rounds.length} rounds of API, bare Fastify + pg, floor (req/s)\n` +
      e.rounds
        .map(
          (r, i) =>
            `  round ${i + 1}: API ${r.api.perSecond.toFixed(0)}   bare ${r.bare.perSecond.toFixed(0)}   floor ${r.floor.perSecond.toFixed(0)}   ` +
            `API/bare ${pct(r.api.perSecond, r.bare.perSecond)}   floor/bare ${pct(r.floor.perSecond, r.bare.perSecond)}   ` +
            `machine CPU per request: API ${r.api.cpuUs.toFixed(0)} µs, bare ${r.bare.cpuUs.toFixed(0)}, floor ${r.floor.cpuUs.toFixed(0)}\n`,
        )
        .join('') +
      `  median round: API/bare ${pct(e.median.api.perSecond, e.median.bare.perSecond)} (goal ≥ 50%)\n` +
      `GET /api/users/{id}/expenses?include=type,rate,attachments with ${e.list.expenses} expenses, ${e.list.runs} sequential\n` +
      `  p50 ${ms(e.list.p50)}   p99 ${ms(e.list.p99)}\n`,
  );
}

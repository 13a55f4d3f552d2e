/**
 * The HTTP benchmarks: log-in round trip and argon2 cost (identity), POST and list of expenses
 * (expenses). `npm run bench` runs them after the event-store benchmarks; alone:
 * `node dist/bench/http.js` (DATABASE_URL: the admin URL for the scratch databases).
 */
import { benchExpenses } from './expenses.js';
import { benchLogin } from './login.js';

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
if (!only || only === 'expenses') {
  const e = await benchExpenses(Number(process.env.BENCH_SECONDS ?? 10));
  process.stdout.write(
    `\nPOST /api/expenses, 32 connections\n` +
      `  API ${e.api.toFixed(0)} req/s   bare Fastify + pg ${e.bare.toFixed(0)} req/s   ratio ${((e.api / e.bare) * 100).toFixed(1)}% (goal ≥ 50%)\n` +
      `GET /api/users/{id}/expenses?include=type,rate,attachments with ${e.list.expenses} expenses, ${e.list.runs} sequential\n` +
      `  p50 ${ms(e.list.p50)}   p99 ${ms(e.list.p99)}\n`,
  );
}

/**
 * The JWT guard's session lookup (libs/identity/src/auth/jwt.strategy.ts: the `sessions` primary key
 * joined to `users`, prepared) beside the cheapest round trip there is, a prepared `SELECT 1`: what
 * reading the session on every request costs, and what any check that a cached entry is still current
 * would cost anyway (docs/adr/0003). 10,000 sessions of 10,000 users; one client in sequence, then a
 * pool of 20 at 32 in flight (the API's pool); rounds alternate the two and each figure is the median
 * of 3. CPU: this process (process.cpuUsage) and the PostgreSQL backends (/proc/<pid>/stat; the
 * server must run on this machine).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { createScratch, dropScratch, openDataSource } from './db.js';

const DB = 'uvol_bench_session_lookup';
const SESSIONS = 10_000;
const LOOKUP = `SELECT s.current_jti, s.user_id, s.organisation_id, u.permissions FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.id = $1 AND s.revoked_at IS NULL`;

export interface LookupFigure {
  readonly perSecond: number;
  readonly nodeUs: number;
  readonly postgresUs: number;
}
export interface LookupRow {
  readonly shape: string;
  readonly lookup: LookupFigure;
  readonly selectOne: LookupFigure;
}

/** CPU ticks (USER_HZ, 100 a second) a process has used. */
const ticksOf = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(f[11]) + Number(f[12]);
};

export async function benchSessionLookup(log: (line: string) => void): Promise<LookupRow[]> {
  const url = await createScratch(DB);
  const pool = new pg.Pool({ connectionString: url, max: 20, idleTimeoutMillis: 0 });
  try {
    const ds = await openDataSource(url);
    await ds.query(
      `INSERT INTO users (id, organisation_id, email, password_hash, display_name, status, permissions, created_at)
       SELECT g, 1, 'u' || g || '@bench.example', 'x', 'U', 'active', '["manage-rotas","approve-claims"]', now()
         FROM generate_series(1, $1) g`,
      [SESSIONS],
    );
    const ids = Array.from({ length: SESSIONS }, () => randomUUID());
    await ds.query(
      `INSERT INTO sessions (id, user_id, organisation_id, current_jti, issued_at)
       SELECT s, row_number() OVER (), 1, gen_random_uuid(), now() FROM unnest($1::uuid[]) s`,
      [ids],
    );
    await ds.query('ANALYZE');
    await ds.destroy();
    const clients = await Promise.all(Array.from({ length: 20 }, () => pool.connect()));
    const pids = await Promise.all(
      clients.map(async (c) => Number((await c.query<{ p: number }>('SELECT pg_backend_pid() AS p')).rows[0]!.p)),
    );
    clients.forEach((c) => c.release());
    let next = 0;
    const queries = {
      lookup: () => pool.query({ name: 'lookup', text: LOOKUP, values: [ids[next++ % SESSIONS]] }),
      selectOne: () => pool.query({ name: 'one', text: 'SELECT 1 AS one' }),
    };
    const run = async (kind: keyof typeof queries, total: number, inFlight: number): Promise<LookupFigure> => {
      const cpu = process.cpuUsage();
      const pg0 = pids.reduce((a, p) => a + ticksOf(p), 0);
      const t0 = performance.now();
      let started = 0;
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (started < total) {
            started++;
            await queries[kind]();
          }
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      const used = process.cpuUsage(cpu);
      const pgTicks = pids.reduce((a, p) => a + ticksOf(p), 0) - pg0;
      return {
        perSecond: total / seconds,
        nodeUs: (used.user + used.system) / total,
        postgresUs: (pgTicks * 10_000) / total,
      };
    };
    for (const kind of ['lookup', 'selectOne'] as const) await run(kind, 2_000, 32);
    const rows: LookupRow[] = [];
    for (const [shape, total, inFlight] of [
      ['one client, in sequence', 5_000, 1],
      ['pool of 20, 32 in flight', 20_000, 32],
    ] as const) {
      const figures = { lookup: [] as LookupFigure[], selectOne: [] as LookupFigure[] };
      for (let round = 0; round < 3; round++)
        for (const kind of round % 2 ? (['selectOne', 'lookup'] as const) : (['lookup', 'selectOne'] as const))
          figures[kind].push(await run(kind, total, inFlight));
      const median = (xs: LookupFigure[]): LookupFigure => ({
        perSecond: [...xs.map((x) => x.perSecond)].sort((a, b) => a - b)[1]!,
        nodeUs: [...xs.map((x) => x.nodeUs)].sort((a, b) => a - b)[1]!,
        postgresUs: [...xs.map((x) => x.postgresUs)].sort((a, b) => a - b)[1]!,
      });
      rows.push({ shape, lookup: median(figures.lookup), selectOne: median(figures.selectOne) });
      log(`session lookup: ${shape} done`);
    }
    return rows;
  } finally {
    await pool.end();
    await dropScratch(DB);
  }
}

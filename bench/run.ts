/**
 * `npm run bench`: append and replay throughput of the event store, each beside raw Postgres.
 *
 *   DATABASE_URL   admin URL; scratch databases uvol_bench_* are created and dropped through it
 *                  (default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_ONLY     append | paths | replay | hours | session (default all five)
 *   BENCH_PATHS_SINGLES  single-event transactions per write-path variant and round (default 1000)
 *   BENCH_PATHS_MULTIS   100-stream transactions per write-path variant and round (default 20)
 *   BENCH_PATHS_ROUNDS   rounds of the write paths; each variant's figure is its median (default 3)
 *   BENCH_EMBEDDED       1: the write paths on the embedded database (PGlite) instead of DATABASE_URL
 *   BENCH_EVENTS   events in the replayed log (default 1000000)
 *   BENCH_BATCH    replay batch size of the headline run (default unset: no batchSize is passed,
 *                  so the run measures ProjectionReplayer's own default; the batch size it used is
 *                  read back from its progress reports and printed, and the profile uses it too)
 *   BENCH_SWEEP    further replay batch sizes, comma-separated (default none), e.g. 1000,5000,10000
 *   BENCH_PROFILE  0 to skip the read-only / write-only sub-measurements (default on)
 *   BENCH_PROFILE_WRITE_EVENTS  events of the write-only profile (default 200000)
 *   BENCH_SEALED   0 to skip the replay of sealed personal data (default on; issue 32): the log's
 *                  descriptions sealed per submitter, replayed beside a plain replay of the same
 *                  log; scale it down with BENCH_EVENTS for a quick run
 *   BENCH_HOURS_*  the volunteer hours report's bench: hours.ts
 */
import os from 'node:os';
import { benchAppend, benchAppendPaths } from './append.js';
import { ADMIN_URL } from './db.js';
import { benchHours } from './hours.js';
import { benchReplay } from './replay.js';
import { benchSessionLookup } from './session-lookup.js';

const env = process.env;
const only = env.BENCH_ONLY;
const int = (value: string | undefined, fallback: number) => (value ? Number(value.replace(/_/g, '')) : fallback);

const rate = (events: number, seconds: number) => Math.round(events / seconds).toLocaleString('en-US');
const pct = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const log = (line: string) => console.error(`  · ${line}`);

async function main(): Promise<void> {
  const host = new URL(ADMIN_URL);
  console.log(
    `uvol bench — ${new Date().toISOString()} — node ${process.version}, ${os.cpus().length} cores, ` +
      `postgres at ${host.host}, load average ${loadavg()}`,
  );
  const out: string[] = [];

  if (!only || only === 'append') {
    const figures = await benchAppend({ singles: 5_000, batches: 200, batchSize: 100, concurrency: 8, log });
    out.push(
      '\nAppend throughput (events/s; EventStore.append in EventStore.transaction vs raw pg, same rows, same tx shape)\n' +
        table(
          ['variant', 'tx', 'events', 'EventStore', 'raw pg', 'ratio'],
          figures.map((f) => [
            f.name,
            String(f.transactions),
            String(f.events),
            rate(f.events, f.storeSeconds),
            rate(f.events, f.rawSeconds),
            pct(f.rawSeconds, f.storeSeconds),
          ]),
        ),
    );
  }

  if (!only || only === 'paths') {
    const figures = await benchAppendPaths({
      singles: int(env.BENCH_PATHS_SINGLES, 1_000),
      multis: int(env.BENCH_PATHS_MULTIS, 20),
      streams: 100,
      concurrency: 8,
      rounds: int(env.BENCH_PATHS_ROUNDS, 3),
      embedded: env.BENCH_EMBEDDED === '1',
      log,
    });
    const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    for (const group of [...new Set(figures.map((f) => f.group))]) {
      const rows = figures.filter((f) => f.group === group);
      const first = median(rows[0]!.seconds);
      out.push(
        `\nWrite paths${env.BENCH_EMBEDDED === '1' ? ' (embedded PGlite)' : ''}: ${group} ` +
          `(${rows[0]!.transactions} tx, ${rows[0]!.events} events per round; median of ${rows[0]!.seconds.length} rounds)\n` +
          table(
            ['path', 'tx/s', 'events/s', 'µs/tx', 'vs first', 'rounds (tx/s)'],
            rows.map((f) => {
              const m = median(f.seconds);
              return [
                f.name,
                rate(f.transactions, m),
                rate(f.events, m),
                ((m / f.transactions) * 1e6).toFixed(0),
                pct(first, m),
                f.seconds.map((s) => rate(f.transactions, s)).join(' / '),
              ];
            }),
          ),
      );
    }
  }

  if (!only || only === 'replay') {
    const sweep = (env.BENCH_SWEEP ?? '')
      .split(',')
      .map((s) => int(s, 0))
      .filter((n) => n > 0);
    const r = await benchReplay({
      events: int(env.BENCH_EVENTS, 1_000_000),
      ...(env.BENCH_BATCH ? { batchSize: int(env.BENCH_BATCH, 0) } : {}),
      sweep,
      profile: env.BENCH_PROFILE !== '0',
      profileWriteEvents: int(env.BENCH_PROFILE_WRITE_EVENTS, 200_000),
      sealed: env.BENCH_SEALED !== '0',
      log,
    });
    const replayRate = r.events / r.replaySeconds;
    out.push(
      `\nReplay throughput (${r.events.toLocaleString('en-US')} events, one upsert each; log generated in ${r.generateSeconds.toFixed(1)} s)\n` +
        table(
          ['run', 'seconds', 'events/s', 'vs raw'],
          [
            [
              `ProjectionReplayer.replay, batchSize ${r.batchSize}${r.defaultBatchSize ? ' (default)' : ''}`,
              r.replaySeconds.toFixed(2),
              rate(r.events, r.replaySeconds),
              pct(r.rawSeconds, r.replaySeconds),
            ],
            ...r.sweep.map((s) => [
              `ProjectionReplayer.replay, batchSize ${s.batchSize}`,
              s.seconds.toFixed(2),
              rate(r.events, s.seconds),
              pct(r.rawSeconds, s.seconds),
            ]),
            [
              `raw INSERT … SELECT FROM events (median; runs ${r.rawRuns.map((s) => s.toFixed(2)).join(', ')} s)`,
              r.rawSeconds.toFixed(2),
              rate(r.events, r.rawSeconds),
              '100.0%',
            ],
          ],
        ) +
        `\ngoals: replay ≥ 50,000 ev/s: ${replayRate >= 50_000 ? 'met' : 'MISSED'}; ` +
        `replay ≥ 30% of raw: ${r.rawSeconds / r.replaySeconds >= 0.3 ? 'met' : 'MISSED'}`,
    );
    if (r.sealed) {
      const s = r.sealed;
      out.push(
        `\nReplay of sealed personal data (the same log, every description sealed with its submitter's key, 50 users; sealing took ${s.sealSeconds.toFixed(1)} s)\n` +
          table(
            ['run', 'seconds', 'events/s', 'vs plain'],
            [
              [
                'ProjectionReplayer.replay, plain log (same minute)',
                s.plainSeconds.toFixed(2),
                rate(r.events, s.plainSeconds),
                '100.0%',
              ],
              [
                'ProjectionReplayer.replay, sealed log, opened',
                s.sealedSeconds.toFixed(2),
                rate(r.events, s.sealedSeconds),
                pct(s.plainSeconds, s.sealedSeconds),
              ],
            ],
          ) +
          `\ngoal: sealed replay ≥ 80% of plain: ${s.plainSeconds / s.sealedSeconds >= 0.8 ? 'met' : 'MISSED'}`,
      );
    }
    if (r.profile.length) {
      out.push(
        `\nReplay profile (batch size ${r.batchSize}; each part alone)\n` +
          table(
            ['part', 'events', 'seconds', 'events/s', 'what'],
            r.profile.map((p) => [p.name, String(p.events), p.seconds.toFixed(2), rate(p.events, p.seconds), p.note]),
          ),
      );
    }
  }
  if (!only || only === 'hours') {
    const h = await benchHours(log);
    const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
    const at = (xs: readonly number[], p: number) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
    const rawMedian = at(h.runs.raw, 0.5);
    const line = (what: string, rows: number, xs: number[]) => [
      what,
      rows.toLocaleString('en-US'),
      at(xs, 0.5).toFixed(1),
      at(xs, 0.9).toFixed(1),
      (at(xs, 0.5) / rawMedian).toFixed(2),
    ];
    out.push(
      `\nVolunteer hours report (${h.shifts.toLocaleString('en-US')} past shifts over 365 days, another organisation's as many beside; ` +
        `${h.runs.raw.length} runs each, alternating)\n` +
        table(
          ['statement', 'rows out', 'p50 ms', 'p90 ms', 'vs raw'],
          [
            line('report, group_by=user (one aggregate)', h.groups.user, h.runs.user),
            line('report, group_by=team', h.groups.team, h.runs.team),
            line('report, group_by=rota', h.groups.rota, h.runs.rota),
            line('report, last 30 days, group_by=user', h.monthGroups, h.runs.month),
            line('raw SELECT of the year’s rows', h.rawRows, h.runs.raw),
          ],
        ) +
        `\nplan of the report (group_by=user):\n${h.plan.map((l) => `  ${l}`).join('\n')}` +
        `\nhours: report p50 ${at(h.runs.user, 0.5).toFixed(1)} ms, raw p50 ${rawMedian.toFixed(1)} ms, ratio ${(at(h.runs.user, 0.5) / rawMedian).toFixed(2)}`,
    );
  }

  if (!only || only === 'session') {
    const rows = await benchSessionLookup(log);
    const cells = (f: { perSecond: number; nodeUs: number; postgresUs: number }) => [
      Math.round(f.perSecond).toLocaleString('en-US'),
      f.nodeUs.toFixed(0),
      f.postgresUs.toFixed(0),
      (f.nodeUs + f.postgresUs).toFixed(0),
    ];
    out.push(
      `\nJWT guard's session lookup beside a prepared SELECT 1 (median of 3 alternating rounds; CPU µs per query)\n` +
        table(
          ['shape', 'statement', 'per s', 'node µs', 'postgres µs', 'cpu µs'],
          rows.flatMap((r) => [
            [r.shape, 'session lookup', ...cells(r.lookup)],
            [r.shape, 'SELECT 1', ...cells(r.selectOne)],
          ]),
        ) +
        `\nsession: lookup ${(rows[1]!.lookup.nodeUs + rows[1]!.lookup.postgresUs).toFixed(0)} µs cpu, ` +
        `select 1 ${(rows[1]!.selectOne.nodeUs + rows[1]!.selectOne.postgresUs).toFixed(0)} µs cpu (32 in flight)`,
    );
  }

  out.push(`\nload average at the end: ${loadavg()} (the bench itself keeps it near 2; check nothing else ran)`);
  console.log(out.join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

/**
 * One expense write, four ways, at 16 concurrent writers (no HTTP): what the one-statement commit
 * and prepared statements buy (docs/adr/0002-one-statement-commit.md). Machine CPU is read from
 * /proc/stat (every process: Node, Postgres, kernel), so the figure includes the database's work.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { EventStore, EventUpcasters, userActor } from '#app/event-store';
import { loadConfig, PreparedStatements } from '#app/platform';
import { contexts, coreImports } from '../apps/common/core.js';
import { busyTicks, createScratch, dropScratch } from './db.js';
import { InlineProjections, storeInternals } from './internals.js';

export interface WritePathFigure {
  readonly name: string;
  readonly perSecond: number;
  /** Microseconds of CPU per write, all processes on the machine. */
  readonly machineUs: number;
  /** Microseconds of CPU per write in this Node process. */
  readonly nodeUs: number;
}

async function measure(
  name: string,
  write: () => Promise<unknown>,
  total: number,
  concurrency = 16,
): Promise<WritePathFigure> {
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = 0; i < 20; i++) await write(); // warm-up: connections, prepared statements, JIT
    }),
  );
  const ticks = busyTicks();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = 0; i < total / concurrency; i++) await write();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return {
    name,
    perSecond: total / seconds,
    machineUs: ((busyTicks() - ticks) * 10_000) / total,
    nodeUs: (used.user + used.system) / total,
  };
}

export async function benchWritePaths(total = 4_000): Promise<WritePathFigure[]> {
  const url = await createScratch('uvol_bench_writes');
  const dataDir = mkdtempSync(join(tmpdir(), 'uvol-bench-writes-'));
  const config = loadConfig({ DATABASE_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const app = await (
    await Test.createTestingModule({
      imports: [...coreImports(config, { migrate: true }), ...contexts.domain],
    }).compile()
  ).init();
  try {
    const ds = app.get(DataSource);
    const store = app.get(EventStore);
    // The same store with unnamed statements (as DataSource.query sends them, and as embedded mode does).
    const unnamed = new EventStore(
      ds,
      app.get(EventUpcasters),
      app.get(InlineProjections),
      new PreparedStatements(ds, { embedded: true }),
    );
    await ds.query(`CREATE TABLE bare_expenses (LIKE expenses INCLUDING ALL)`);
    let id = 0;
    const recorded = () => {
      id++;
      const data = {
        id,
        organisationId: 1,
        userId: 1,
        typeId: 1,
        rateId: null,
        roleId: null,
        amount: 4.2,
        description: 'bus',
        submitted: null,
        date: '2026-11-20',
        miles: null,
        passengers: null,
      };
      return {
        streamId: `expenses.Expense-${id}`,
        expectedVersion: 'no_stream' as const,
        events: [{ type: 'expenses.ExpenseRecorded', data }],
      };
    };
    const meta = { organisationId: 1, actor: userActor(1) };
    // The store's own transaction and append, which domain code no longer gets (docs/adr/0005).
    const internal = storeInternals(store);
    // What SaveExpenseHandler does for a create: a drawn id, nothing read, one statement.
    const handle = (on: EventStore, append: ReturnType<typeof recorded>) =>
      on.handle(
        append.streamId,
        () => null,
        () => append.events,
        { expect: 'no_stream', metadata: meta },
      );
    return [
      await measure(
        "raw pg: INSERT of the projection row alone (the bare route's statement)",
        () =>
          ds.query(
            `INSERT INTO bare_expenses (id, organisation_id, user_id, type_id, amount, description, date, claimed, created_at, updated_at)
           VALUES ($1, 1, 1, 1, 4.2, 'bus', '2026-11-20', false, now(), now()) RETURNING *`,
            [++id],
          ),
        total,
      ),
      await measure(
        'EventStore.transaction + append (6 round trips)',
        () => internal.transaction((tx) => internal.append(tx, [recorded()], meta)),
        total,
      ),
      await measure("EventStore.handle at 'no_stream', statement unnamed", () => handle(unnamed, recorded()), total),
      await measure(
        "EventStore.handle at 'no_stream', prepared (what the API runs)",
        () => handle(store, recorded()),
        total,
      ),
    ];
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    await dropScratch('uvol_bench_writes');
  }
}

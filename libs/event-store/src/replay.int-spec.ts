import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { contextFixture } from '../../../test/support/test-context.js';
import { Checkpoints } from './checkpoints.js';
import { EventStore, storeInternals } from './event-store.js';
import type { StoredEvent } from './event.types.js';
import { op, type Projection } from './projection.js';
import { ProjectionRegistry } from './projection-registry.js';
import { ProjectionReplayer } from './replay.js';

type Deposit = { account: string; amount: number; note: string };

/**
 * A small ledger projected twice by identical logic into two tables: `ledger_live` is never
 * replayed, so it is exactly what live projection wrote; `ledger_replayed` gets rebuilt.
 */
function ledger(name: string, table: string): Projection {
  return {
    name,
    version: 1,
    tables: [table],
    handles: ['test.Opened', 'test.Deposited', 'test.Closed'],
    project(e: StoredEvent) {
      const d = e.data as Deposit;
      if (e.type === 'test.Opened')
        return [
          op.upsert(table, ['account'], { account: d.account, balance: 0, deposits: 0, history: [], closed: false }),
        ];
      if (e.type === 'test.Closed') return [op.update(table, { account: d.account }, { closed: true })];
      // Deposits carry the running figures the aggregate computed, so the projection stays a pure map.
      const r = e.data as Deposit & { balance: number; deposits: number; history: string[] };
      return [
        op.upsert(table, ['account'], {
          account: d.account,
          balance: r.balance,
          deposits: r.deposits,
          history: r.history,
          closed: false,
        }),
      ];
    },
  };
}

describe('projection replay', () => {
  // `ctx.internal`: the transactional writes domain code does not get, to test them and to seed streams.
  const ctx = contextFixture({
    also: (app) => ({ internal: storeInternals(app.get(EventStore)), replayer: app.get(ProjectionReplayer) }),
  });
  const state = new Map<string, { balance: number; deposits: number; history: string[]; version: number }>();

  beforeAll(async () => {
    for (const table of ['ledger_live', 'ledger_replayed']) {
      await ctx.ds.query(`CREATE TABLE ${table} (account text PRIMARY KEY, balance numeric(12,2) NOT NULL,
        deposits int NOT NULL, history jsonb NOT NULL, closed boolean NOT NULL)`);
      await ctx.ds.query(`CREATE INDEX ${table}_balance ON ${table} (balance)`);
    }
    const registry = ctx.app.get(ProjectionRegistry);
    registry.add(ledger('ledger-live', 'ledger_live'));
    registry.add(ledger('ledger-replayed', 'ledger_replayed'));
  });

  async function open(account: string) {
    state.set(account, { balance: 0, deposits: 0, history: [], version: 1 });
    await ctx.internal.transaction((tx) =>
      ctx.internal.append(tx, [
        {
          streamId: `account-${account}`,
          expectedVersion: 'no_stream',
          events: [{ type: 'test.Opened', data: { account } }],
        },
      ]),
    );
  }

  async function deposit(account: string, amount: number) {
    const s = state.get(account)!;
    const next = {
      balance: Math.round((s.balance + amount) * 100) / 100,
      deposits: s.deposits + 1,
      history: [...s.history, `+${amount}`].slice(-3),
    };
    await ctx.internal.transaction((tx) =>
      ctx.internal.append(tx, [
        {
          streamId: `account-${account}`,
          expectedVersion: s.version,
          events: [{ type: 'test.Deposited', data: { account, amount, ...next } }],
        },
      ]),
    );
    state.set(account, { ...next, version: s.version + 1 });
  }

  const checksum = async (table: string): Promise<string> => {
    const [{ sum }] = await ctx.ds.query(
      `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY account), '')) AS sum FROM ${table} t`,
    );
    return sum;
  };

  it('projects inline: the rows are there as soon as the append commits', async () => {
    await open('a1');
    await deposit('a1', 12.5);
    const [row] = await ctx.ds.query(`SELECT balance, deposits, history FROM ledger_live WHERE account = 'a1'`);
    expect(row).toEqual({ balance: '12.50', deposits: 1, history: ['+12.5'] });
  });

  it('rebuilds dropped rows identical to what live projection wrote', async () => {
    const accounts = Array.from({ length: 30 }, (_, i) => `acct-${i}-${randomUUID().slice(0, 6)}`);
    for (const a of accounts) await open(a);
    for (let i = 0; i < 300; i++) await deposit(accounts[i % accounts.length]!, (i % 17) + 0.25);
    await ctx.internal.transaction((tx) =>
      ctx.internal.append(tx, [
        {
          streamId: `account-${accounts[0]}`,
          expectedVersion: 'any',
          events: [{ type: 'test.Closed', data: { account: accounts[0] } }],
        },
      ]),
    );
    const live = await checksum('ledger_live');
    expect(await checksum('ledger_replayed')).toBe(live);

    await ctx.ds.query(`DELETE FROM ledger_replayed`);
    expect(await checksum('ledger_replayed')).not.toBe(live);
    const progress: number[] = [];
    const result = await ctx.replayer.replay(['ledger-replayed'], {
      batchSize: 64,
      onProgress: (p) => progress.push(p.done),
    });

    expect(await checksum('ledger_replayed')).toBe(live);
    expect(result.events).toBeGreaterThanOrEqual(331);
    expect(progress.length).toBeGreaterThan(3);
  });

  it('keeps index and constraint names after the swap, and leaves no shadow table', async () => {
    const names = await ctx.ds.query(
      `SELECT indexname FROM pg_indexes WHERE tablename = 'ledger_replayed' ORDER BY indexname`,
    );
    expect(names.map((r: { indexname: string }) => r.indexname)).toEqual([
      'ledger_replayed_balance',
      'ledger_replayed_pkey',
    ]);
    const [{ n }] = await ctx.ds.query(
      `SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'ledger_replayed__%'`,
    );
    expect(n).toBe(0);
  });

  it("carries the table's triggers over to the rebuilt table (caches hear of its changes)", async () => {
    await ctx.ds.query(
      `CREATE TRIGGER ledger_replayed_changes AFTER INSERT OR UPDATE OR DELETE ON ledger_replayed FOR EACH ROW EXECUTE FUNCTION uvol_notify_change('account')`,
    );
    await ctx.replayer.replay(['ledger-replayed']);
    const triggers = await ctx.ds.query(
      `SELECT tgname FROM pg_trigger WHERE tgrelid = 'ledger_replayed'::regclass AND NOT tgisinternal`,
    );
    expect(triggers).toEqual([{ tgname: 'ledger_replayed_changes' }]);
    expect(await checksum('ledger_replayed')).toBe(await checksum('ledger_live'));
  });

  // Needs concurrent transactions, which embedded PGlite serialises (see event-store.int-spec).
  (process.env.TEST_PG_ADMIN_URL ? it : it.skip)(
    'is safe while appends continue: the rebuilt table equals the live one',
    async () => {
      const accounts = Array.from({ length: 10 }, (_, i) => `busy-${i}-${randomUUID().slice(0, 6)}`);
      for (const a of accounts) await open(a);
      let writing = true;
      let written = 0;
      const writers = accounts.map(async (a) => {
        while (writing) {
          await deposit(a, 1.5);
          written++;
        }
      });
      await new Promise((r) => setTimeout(r, 50));
      const replay = ctx.replayer.replay(['ledger-replayed'], { batchSize: 25 });
      await replay;
      writing = false;
      await Promise.all(writers);
      expect(written).toBeGreaterThan(0);
      expect(await checksum('ledger_replayed')).toBe(await checksum('ledger_live'));
    },
  );

  it('refuses a second replay while one runs', async () => {
    const first = ctx.replayer.replay(['ledger-replayed'], { batchSize: 8 });
    const second = ctx.replayer.replay(['ledger-replayed'], { batchSize: 8 });
    const results = await Promise.allSettled([first, second]);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    // Embedded too: PGlite's one session makes the advisory lock re-entrant, the process's flag does not.
    expect(refused.map((r) => String(r.reason))).toEqual([expect.stringMatching(/Another replay is running/)]);
    // The refused one must leave the running one's shadow tables alone: the other one completes.
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await checksum('ledger_replayed')).toBe(await checksum('ledger_live'));
  });

  it('refuses an unknown projection name', async () => {
    await expect(ctx.replayer.replay(['nope'])).rejects.toThrow(/Unknown projection "nope"/);
  });

  it('reports each projection in the status, with its version after a rebuild', async () => {
    const status = await ctx.app.get(Checkpoints).status();
    const replayed = status.find((s) => s.name === 'ledger-replayed');
    const live = status.find((s) => s.name === 'ledger-live');
    expect(replayed).toMatchObject({ kind: 'projection', behind: 0, state: expect.stringMatching(/^live \(rebuilt /) });
    expect(live).toMatchObject({ kind: 'projection', state: 'live (never rebuilt)' });
  });
});

import { beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { contextFixture } from '../../../../test/support/test-context.js';
import { eventually } from '../../../../test/support/eventually.js';
import { type Change, ChangeFeed } from './change-feed.js';
import { ReadCache } from './read-cache.js';

describe('ChangeFeed and ReadCache on Postgres', () => {
  const ctx = contextFixture({ also: (app) => ({ feed: app.get(ChangeFeed) }) });
  const heard: Change[] = [];

  beforeAll(async () => {
    ctx.feed.subscribe((c) => heard.push(c));
    await ctx.ds.query(
      `INSERT INTO organisation_settings (organisation_id, name, value) VALUES (901, 'timezone', '"Europe/London"')`,
    );
    // Let that insert's own notification pass: a load overlapping it would (rightly) not be kept.
    if (ctx.feed.live) await eventually(() => heard.some((c) => c.table === 'organisation_settings'));
  });

  const timezone = async () =>
    (await ctx.ds.query(`SELECT value FROM organisation_settings WHERE organisation_id = 901 AND name = 'timezone'`))[0]
      .value as string;

  if (process.env.TEST_EMBEDDED === '1') {
    it('stays off embedded (one process, and PGlite is one session), so caches always read', async () => {
      expect(ctx.feed.live).toBe(false);
      const cache = new ReadCache<string>(ctx.feed, [{ table: 'organisation_settings', key: 'organisation_id' }]);
      expect(await cache.get('901', timezone)).toBe('Europe/London');
      await ctx.ds.query(`UPDATE organisation_settings SET value = '"Europe/Paris"' WHERE organisation_id = 901`);
      expect(await cache.get('901', timezone)).toBe('Europe/Paris');
    });
    return;
  }

  it('is live once started', () => {
    expect(ctx.feed.live).toBe(true);
  });

  it('evicts what another connection changed, once its transaction commits', async () => {
    const cache = new ReadCache<string>(ctx.feed, [{ table: 'organisation_settings', key: 'organisation_id' }]);
    expect(await cache.get('901', timezone)).toBe('Europe/London');
    heard.length = 0;
    const other = new pg.Client({ connectionString: ctx.env.config.database.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`UPDATE organisation_settings SET value = '"Europe/Paris"' WHERE organisation_id = 901`);
      await new Promise((r) => setTimeout(r, 200));
      expect(heard).toEqual([]);
      expect(await cache.get('901', async () => 'not read: cached')).toBe('Europe/London');
      await other.query('COMMIT');
    } finally {
      await other.end();
    }
    await eventually(() => heard.some((c) => c.table === 'organisation_settings' && c.key === '901'));
    expect(await cache.get('901', timezone)).toBe('Europe/Paris');
  });

  it('hears a TRUNCATE as every row changed', async () => {
    heard.length = 0;
    await ctx.ds.query(`TRUNCATE expense_rates`);
    await eventually(() => heard.some((c) => c.table === 'expense_rates' && c.key === null));
  });

  it('turns caches off while its connection is down, and comes back', async () => {
    const cache = new ReadCache<string>(ctx.feed, [{ table: 'organisation_settings', key: 'organisation_id' }]);
    await cache.get('901', timezone);
    heard.length = 0;
    await ctx.ds.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'uvol change feed' AND datname = current_database()`,
    );
    await eventually(() => !ctx.feed.live);
    expect(heard).toContainEqual({ table: '*', key: null });
    // Changed while nobody listens: the cache must not hand out the old value afterwards.
    await ctx.ds.query(`UPDATE organisation_settings SET value = '"Europe/Rome"' WHERE organisation_id = 901`);
    expect(await cache.get('901', timezone)).toBe('Europe/Rome');
    await eventually(() => ctx.feed.live);
    expect(await cache.get('901', timezone)).toBe('Europe/Rome');
  });
});

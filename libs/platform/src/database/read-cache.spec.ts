import { describe, expect, it } from '@jest/globals';
import type { ChangeFeed, ChangeListener } from './change-feed.js';
import { ReadCache } from './read-cache.js';

/** The feed's two faces the cache uses, driven by hand: these are the cache's rules, not the feed's. */
function feed(live = true) {
  const listeners: ChangeListener[] = [];
  const f = {
    live,
    subscribe: (l: ChangeListener) => listeners.push(l),
    changed: (c: Parameters<ChangeListener>[0]) => listeners.forEach((l) => l(c)),
  };
  return f as typeof f & ChangeFeed;
}

const counter = () => {
  let n = 0;
  return {
    load: async () => ({ n: ++n }),
    get count() {
      return n;
    },
  };
};

describe('ReadCache', () => {
  it('given a live feed, when a key is read twice, then it loads once and both reads agree', async () => {
    const cache = new ReadCache<{ n: number }>(feed(), [{ table: 't' }]);
    const c = counter();
    expect(await cache.get('a', c.load)).toEqual({ n: 1 });
    expect(await cache.get('a', c.load)).toEqual({ n: 1 });
    expect(c.count).toBe(1);
  });

  it('given a feed that is not live, when read, then it always loads', async () => {
    const cache = new ReadCache<{ n: number }>(feed(false), [{ table: 't' }]);
    const c = counter();
    await cache.get('a', c.load);
    await cache.get('a', c.load);
    expect(c.count).toBe(2);
  });

  it('given a keyed watch, when one row changes, then only that entry goes (by notification key or written row)', async () => {
    const f = feed();
    const cache = new ReadCache<{ n: number }>(f, [{ table: 'sessions', key: 'id' }]);
    const a = counter();
    const b = counter();
    await cache.get('a', a.load);
    await cache.get('b', b.load);
    f.changed({ table: 'sessions', key: 'a' });
    await cache.get('a', a.load);
    await cache.get('b', b.load);
    expect([a.count, b.count]).toEqual([2, 1]);
    f.changed({ table: 'sessions', row: { id: ['b'], name: 'x' } });
    await cache.get('a', a.load);
    await cache.get('b', b.load);
    expect([a.count, b.count]).toEqual([2, 2]);
  });

  it('given an unkeyed watch, a change to any row, a keyless change or "everything" empties it; other tables do not', async () => {
    const f = feed();
    const cache = new ReadCache<{ n: number }>(f, [{ table: 'sessions', key: 'id' }, { table: 'users' }]);
    const c = counter();
    await cache.get('a', c.load);
    f.changed({ table: 'expenses', key: '1' });
    await cache.get('a', c.load);
    expect(c.count).toBe(1);
    for (const change of [
      { table: 'users', key: '7' },
      { table: 'sessions', key: null },
      { table: '*', key: null },
    ]) {
      f.changed(change);
      await cache.get('a', c.load);
    }
    expect(c.count).toBe(4);
  });

  it('given a change while a load is under way, then that load is returned but not kept', async () => {
    const f = feed();
    const cache = new ReadCache<{ v: string }>(f, [{ table: 't' }]);
    let release!: () => void;
    const slow = cache.get('a', () => new Promise((resolve) => (release = () => resolve({ v: 'before the commit' }))));
    f.changed({ table: 't', key: null });
    release();
    expect(await slow).toEqual({ v: 'before the commit' });
    expect(await cache.get('a', async () => ({ v: 'after' }))).toEqual({ v: 'after' });
  });

  it('given an entry older than its maximum age, when read, then it loads again (the backstop for a silent feed)', async () => {
    const cache = new ReadCache<{ n: number }>(feed(), [{ table: 't' }], 10, 40);
    const c = counter();
    await cache.get('a', c.load);
    await cache.get('a', c.load);
    expect(c.count).toBe(1);
    await new Promise((r) => setTimeout(r, 60));
    await cache.get('a', c.load);
    expect(c.count).toBe(2);
  });

  it('keeps only what `keep` accepts, a bounded number of entries, frozen', async () => {
    const cache = new ReadCache<{ n: number } | null>(feed(), [{ table: 't' }], 2);
    let loads = 0;
    const miss = async () => (loads++, null);
    await cache.get('gone', miss, (v) => v !== null);
    await cache.get('gone', miss, (v) => v !== null);
    expect(loads).toBe(2);
    const c = counter();
    const first = await cache.get('1', c.load);
    await cache.get('2', c.load);
    await cache.get('3', c.load);
    await cache.get('1', c.load);
    expect(c.count).toBe(4);
    expect(Object.isFrozen(first)).toBe(true);
  });
});

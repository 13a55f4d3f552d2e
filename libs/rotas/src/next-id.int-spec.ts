import { describe, expect, it } from '@jest/globals';
import { contextFixture } from '../../../test/support/test-context.js';
import { ID_BLOCK, RotaIds } from './next-id.js';

/** Pooled ids (next-id.ts) against the real sequences: two processes, here two pools on one database. */
describe('rota ids', () => {
  const ctx = contextFixture();

  it('given two processes drawing at once, when each draws many blocks of ids, then no id is drawn twice', async () => {
    const [a, b] = [new RotaIds(ctx.ds), new RotaIds(ctx.ds)];
    const draws = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).many('shift', 1 + (i % 7) * 11)),
    );
    const all = draws.flat();
    expect(new Set(all).size).toBe(all.length);
    for (const d of draws) expect(d).toEqual([...d].sort((x, y) => x - y));
  });

  it('given a pool with ids left, when a request draws one, then it sends no query until the block is spent', async () => {
    const ids = new RotaIds(ctx.ds);
    const queries: string[] = [];
    const query = ctx.ds.query.bind(ctx.ds);
    ctx.ds.query = ((text: string, params?: unknown[]) => (
      queries.push(text),
      query(text, params)
    )) as typeof ctx.ds.query;
    try {
      const drawn: number[] = [];
      for (let i = 0; i < ID_BLOCK; i++) drawn.push(await ids.next('series'));
      expect(queries).toHaveLength(1);
      expect(drawn).toEqual(Array.from({ length: ID_BLOCK }, (_, i) => drawn[0]! + i));
      await ids.next('series');
      expect(queries).toHaveLength(2);
    } finally {
      ctx.ds.query = query;
    }
  });
});

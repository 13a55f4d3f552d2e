import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { contextFixture } from '../../../test/support/test-context.js';
import { ConcurrencyError } from './errors.js';
import type { NewEvent } from './event.types.js';

/**
 * Gates (docs/adr/0008-booking-gates.md): named versions a write passes. Two writers that read a
 * gate at one version cannot both advance it; a write that holds a gate loses when another moved
 * it since it was read; `retries` decides again after a lost race. Both modes (PGlite serialises
 * the transactions, PostgreSQL blocks on the gate's row lock).
 */
describe('EventStore gates', () => {
  const ctx = contextFixture();
  const noted = (n: number): NewEvent[] => [{ type: 'test.GateNoted', data: { n } }];
  const version = async (gate: string) =>
    Number((await ctx.ds.query(`SELECT version FROM stream_gates WHERE id = $1`, [gate]))[0]?.version ?? 0);

  it('given one gate read by two writers, when both append to new streams through it, then one commits and the other loses with nothing written', async () => {
    const gate = `test.Gate-${randomUUID()}`;
    let release!: () => void;
    const bothRead = new Promise<void>((r) => (release = r));
    let read = 0;
    const write = (n: number) =>
      ctx.store.handle(
        `test.Gated-${randomUUID()}`,
        () => null,
        async () => {
          if (++read === 2) release();
          await bothRead;
          return noted(n);
        },
        { expect: 'no_stream', gates: { advance: [gate] } },
      );
    const results = await Promise.allSettled([write(1), write(2)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(
      ConcurrencyError,
    );
    expect(await version(gate)).toBe(1);
  });

  it('given a lost race, when the write has retries, then it decides again on the winner’s state and commits', async () => {
    const gate = `test.Gate-${randomUUID()}`;
    let decisions = 0;
    let release!: () => void;
    const bothRead = new Promise<void>((r) => (release = r));
    const write = () =>
      ctx.store.handle(
        `test.Gated-${randomUUID()}`,
        () => null,
        async () => {
          if (++decisions === 2) release();
          await bothRead;
          return noted(decisions);
        },
        { expect: 'no_stream', gates: { advance: [gate] }, retries: 2 },
      );
    await Promise.all([write(), write()]);
    expect(decisions).toBe(3);
    expect(await version(gate)).toBe(2);
  });

  it('given a write holding a gate, when another advanced it after the hold was read, then the holder loses; a hold alone moves nothing', async () => {
    const gate = `test.Gate-${randomUUID()}`;
    await ctx.store.handle(
      `test.Gated-${randomUUID()}`,
      () => null,
      () => noted(0),
      { expect: 'no_stream', gates: { hold: [gate] } },
    );
    expect(await version(gate)).toBe(0);
    const holder = ctx.store.handle(
      `test.Gated-${randomUUID()}`,
      () => null,
      async () => {
        await ctx.store.handle(
          `test.Gated-${randomUUID()}`,
          () => null,
          () => noted(1),
          { expect: 'no_stream', gates: { advance: [gate] } },
        );
        return noted(2);
      },
      { expect: 'no_stream', gates: { hold: [gate] } },
    );
    await expect(holder).rejects.toBeInstanceOf(ConcurrencyError);
    expect(await version(gate)).toBe(1);
  });

  it('given a decision with nothing to append, then no gate moves', async () => {
    const gate = `test.Gate-${randomUUID()}`;
    await ctx.store.handle(
      `test.Gated-${randomUUID()}`,
      () => null,
      () => [],
      { expect: 'no_stream', gates: { advance: [gate] } },
    );
    expect(await version(gate)).toBe(0);
  });
});

import { describe, expect, it } from '@jest/globals';
import { MAX_ATTEMPTS, nextRetryDelayMs } from './retry-schedule.js';

describe('webhook retry schedule (docs/webhooks.md#retries)', () => {
  it('retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then gives up', () => {
    const delays = Array.from({ length: MAX_ATTEMPTS }, (_, i) => nextRetryDelayMs(i + 1));
    expect(delays).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, null]);
  });
  it('scales with the length of a second (tests), and a manual retry past the schedule fails at once', () => {
    expect(nextRetryDelayMs(1, 10)).toBe(50);
    expect(nextRetryDelayMs(9)).toBeNull();
  });
});

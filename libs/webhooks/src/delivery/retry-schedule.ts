/**
 * docs/webhooks.md#retries: after a failed attempt, the next one comes 5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h and 10 h later; a delivery whose eighth attempt fails is `failed`.
 */
export const RETRY_DELAYS_S = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_S.length + 1;

/** After `attempts` attempts (the last one failed): the delay to the next in ms, or null when the delivery has failed. */
export function nextRetryDelayMs(attempts: number, secondMs = 1_000): number | null {
  const delay = RETRY_DELAYS_S[attempts - 1];
  return delay === undefined ? null : delay * secondMs;
}

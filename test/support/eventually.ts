/**
 * Polls `check` until it holds, for what arrives asynchronously (change notifications, reactors),
 * or fails after `ms`. Tests wait on an outcome this way rather than sleeping a guessed time.
 */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

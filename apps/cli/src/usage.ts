/** Exit codes of every command (`npm run cli -- --help` lists them). */
export const EXIT = { done: 0, failed: 1, refused: 2 } as const;

/** Bad usage or input the command refuses before or while running: exit 2. */
export class UsageError extends Error {}

/** Refused input (a file that cannot be read or is not JSON): exit 2, said without the --help hint. */
export class InputError extends UsageError {}

/** An expected failure (the database cannot be opened, another replay runs): exit 1, one line, no stack. */
export class Failure extends Error {}

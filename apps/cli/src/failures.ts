import { DomainError } from '#app/platform';
import { EXIT, Failure, UsageError } from './usage.js';

/** Node's and PostgreSQL's codes for a database or port the command could not use: expected, one line. */
const ENVIRONMENT: Record<string, (e: NodeError) => string> = {
  EADDRINUSE: (e) =>
    `${e.address ?? 'the address'}:${e.port ?? '?'} is in use by another process (set PORT, or stop that process)`,
  EACCES: (e) => (e.port !== undefined ? `not allowed to listen on port ${e.port}` : e.message),
  ECONNREFUSED: (e) =>
    `cannot reach the database at ${e.address ?? ''}${e.port ? `:${e.port}` : ''}: connection refused (is it running? is DATABASE_URL right?)`,
  ENOTFOUND: (e) => `cannot reach the database: host ${e.hostname ?? ''} not found (is DATABASE_URL right?)`,
  ETIMEDOUT: () => 'cannot reach the database: the connection timed out (is DATABASE_URL right?)',
  '28P01': () => 'the database refused the password of DATABASE_URL',
  '3D000': (e) => `the database of DATABASE_URL does not exist (${e.message})`,
};

interface NodeError extends Error {
  code?: string;
  address?: string;
  port?: number;
  hostname?: string;
}

export interface Outcome {
  readonly code: number;
  /** What stderr gets: one line, or a refused file's header and one line per problem. */
  readonly lines: string[];
  /** Whether the failure was unexpected (a bug, or something this list does not know): its stack is worth showing. */
  readonly unexpected: boolean;
}

/**
 * What an error means for an operator. Refusals (bad usage, a refused file, an unknown
 * organisation, user or permission) exit 2; a database that cannot be opened, a busy port or a
 * lost race exit 1 with one line; anything else is unexpected: exit 1, one line, and the stack
 * only when LOG_LEVEL is debug or trace.
 */
export function outcomeOf(err: unknown, command: string): Outcome {
  const say = (message: string) => `${command}: ${message}`;
  if (err instanceof UsageError) return { code: EXIT.refused, lines: [say(err.message)], unexpected: false };
  if (err instanceof Failure) return { code: EXIT.failed, lines: [say(err.message)], unexpected: false };
  if (err instanceof DomainError) {
    const problems = (err as { problems?: unknown }).problems;
    if (Array.isArray(problems)) {
      const [header] = err.message.split('\n') as [string];
      return {
        code: EXIT.refused,
        lines: [say(header.charAt(0).toLowerCase() + header.slice(1)), ...problems.map((p) => `  - ${String(p)}`)],
        unexpected: false,
      };
    }
    const refused = err.code === 'validation' || err.code === 'not_found' || err.code === 'bad_request';
    // A lost race (409): someone else wrote to the same records meanwhile; running it again decides on what they wrote.
    const message =
      err.code === 'conflict' ? `${err.message} (nothing was written; run the command again)` : err.message;
    return { code: refused ? EXIT.refused : EXIT.failed, lines: [say(oneLine(message))], unexpected: false };
  }
  const e = (err ?? {}) as NodeError & { driverError?: NodeError; errors?: NodeError[] };
  // pg wraps connection failures to several addresses (localhost: ::1 and 127.0.0.1) in an AggregateError.
  const inner = e.driverError ?? e.errors?.[0] ?? e;
  const known = inner.code ? ENVIRONMENT[inner.code] : undefined;
  if (known) return { code: EXIT.failed, lines: [say(known(inner))], unexpected: false };
  // The embedded database's own refusal when another process has its folder (libs/platform, embedded-postgres.ts).
  if (e instanceof Error && /embedded database .* is in use by process/.test(e.message))
    return { code: EXIT.failed, lines: [say(oneLine(e.message))], unexpected: false };
  const message = e instanceof Error ? e.message || e.name : String(err);
  return { code: EXIT.failed, lines: [say(`failed: ${oneLine(message)}`)], unexpected: true };
}

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();

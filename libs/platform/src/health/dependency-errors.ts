/**
 * Whether an error means a dependency (PostgreSQL, the embedded PGlite's socket, Redis) could not be
 * reached, rather than that the request or the code was wrong: such an error is a 503 with
 * Retry-After on any route (docs/http-conventions.md#dependency-outages), never a 401 or a 500.
 */

/** Socket errors of a connection being made or lost (pg, ioredis and PGlite's Unix socket alike). */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that went away or will not take us now: class 08 (connection exception),
 * 57P01–57P03 (terminated by an administrator, crash shutdown, cannot connect now: a restart), 53300
 * (too many connections).
 */
const SQL_STATES = /^(08\d{3}|57P0[123]|53300)$/;

/** Messages pg, pg-pool and ioredis give such failures without a code. */
const MESSAGES = [
  /^Connection terminated/i, // pg: the server or the network closed the socket
  /timeout exceeded when trying to connect/i, // pg-pool: no connection within connectionTimeoutMillis
  /^Client has encountered a connection error/i, // pg: a client reused after its socket failed
  /^Connection is closed\.?$/i, // ioredis: a command on a connection that is down
  /max retries per request/i, // ioredis: MaxRetriesPerRequestError
  /^Stream isn't writeable/i, // ioredis with its offline queue off
  // TypeORM releases a query runner itself when its connection fails; the runner's next query says so.
  /^Query runner already released\. Cannot run queries anymore/i,
];

/**
 * SQLSTATE 55000 (object not in prerequisite state) is also a code's mistake (currval before
 * nextval, say); only with this message, or from the server's connection check (its `routine`,
 * whatever the server's language), is it a database refusing connections (`ALTER DATABASE …
 * ALLOW_CONNECTIONS false`, a maintenance step).
 */
const NOT_ACCEPTING = /^database ".*" is not currently accepting connections$/;
const CONNECTION_CHECK = 'CheckMyDatabase';

/** True when `err`, or what it wraps (TypeORM's driverError, a cause, an AggregateError's errors), is a lost or refused connection. */
export function isDependencyError(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as {
    code?: unknown;
    syscall?: unknown;
    message?: unknown;
    name?: unknown;
    driverError?: unknown;
    cause?: unknown;
    errors?: unknown;
    routine?: unknown;
  };
  if (typeof e.code === 'string' && (SOCKET_CODES.has(e.code) || SQL_STATES.test(e.code))) return true;
  if (e.code === '55000' && (e.routine === CONNECTION_CHECK || NOT_ACCEPTING.test(String(e.message)))) return true;
  // Any failure to connect a socket (ENOENT: PGlite's socket file gone with its server).
  if (e.syscall === 'connect') return true;
  if (e.name === 'MaxRetriesPerRequestError') return true;
  if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string))) return true;
  const inner = [e.driverError, e.cause, ...(Array.isArray(e.errors) ? e.errors : [])];
  return inner.some((x) => x !== err && isDependencyError(x, depth + 1));
}

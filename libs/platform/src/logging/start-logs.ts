import type { LoggerService } from '@nestjs/common';

/** Nest's own start-up chatter: a line per module, per controller and per route (about 140), at info. */
const CHATTY = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

const contextOf = (params: unknown[]) => {
  const last = params[params.length - 1];
  return typeof last === 'string' ? last : undefined;
};

/**
 * The application's logger without Nest's start-up info lines (InstanceLoader, RoutesResolver…):
 * before the `serving` line the log says what we do (creating the database, migrating), not how
 * Nest wires itself. Their warnings and errors, and every other context's lines, pass.
 */
export class QuietStartLogger implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...params: unknown[]): void {
    if (CHATTY.has(contextOf(params) ?? '')) return;
    this.inner.log(message, ...params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.inner.error(message, ...params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.inner.warn(message, ...params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    if (CHATTY.has(contextOf(params) ?? '')) return;
    this.inner.debug?.(message, ...params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    if (CHATTY.has(contextOf(params) ?? '')) return;
    this.inner.verbose?.(message, ...params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    (this.inner.fatal ?? this.inner.error).call(this.inner, message, ...params);
  }
}

/**
 * Nest's log until the application's own logger takes over, which it never does when the start
 * fails: then the buffered lines reach this one. It keeps warnings and errors (one line each, on
 * stderr) but not the ExceptionHandler's report of the error that stopped the start: that error
 * is thrown as well, and the process reports it once (exitOnStartFailure).
 */
export class StartFailureLogger implements LoggerService {
  log(): void {}

  warn(message: unknown, ...params: unknown[]): void {
    this.line('warning', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    if (contextOf(params) === 'ExceptionHandler') return;
    this.line('error', message, params);
  }

  private line(level: string, message: unknown, params: unknown[]): void {
    const text = message instanceof Error ? message.message : String(message);
    const context = contextOf(params);
    process.stderr.write(`${level}: ${context ? `[${context}] ` : ''}${text.replace(/\s*\n\s*/g, ' ')}\n`);
  }
}

/** An error met while starting that the operator can act on: its message alone says what to do. */
export class StartRefusal extends Error {}

/**
 * Ends a process whose start failed: an expected refusal (the embedded database in use by another
 * process, say) is its one line on stderr; anything else is a bug, so its stack is shown. Exit 1.
 */
export function exitOnStartFailure(err: unknown): never {
  process.stderr.write(
    err instanceof StartRefusal
      ? `${err.message}\n`
      : `${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
}

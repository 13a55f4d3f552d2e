import type { LoggerService } from '@nestjs/common';

/**
 * Nest's log in the command line: everything on stderr (stdout carries only a command's result),
 * one line per message. Warnings always; informational lines and stacks only when `detailed`
 * (LOG_LEVEL debug or trace). An error the application context reports while starting is thrown
 * as well, and the command reports it once, so the logger keeps quiet about it.
 */
export class CliLogger implements LoggerService {
  private waiting = false;

  constructor(
    private readonly detailed: boolean,
    private readonly out: { write(s: string): unknown } = process.stderr,
  ) {}

  log(message: unknown, context?: string): void {
    if (this.detailed) this.line('', message, context);
  }

  debug(message: unknown, context?: string): void {
    if (this.detailed) this.line('debug: ', message, context);
  }

  verbose(message: unknown, context?: string): void {
    this.debug(message, context);
  }

  warn(message: unknown, context?: string): void {
    this.line('warning: ', message, context);
  }

  error(message: unknown, ...rest: unknown[]): void {
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    if (context === 'ExceptionHandler' && !this.detailed) return;
    // TypeORM retries a database it cannot reach (ten times, three seconds apart): say so once.
    if (context === 'TypeOrmModule' && !this.detailed && /Unable to connect to the database/.test(String(message))) {
      if (!this.waiting) this.out.write('waiting for the database: it does not answer yet; retrying…\n');
      this.waiting = true;
      return;
    }
    this.line('error: ', message, context);
    const stack =
      message instanceof Error
        ? message.stack
        : rest.find((r): r is string => typeof r === 'string' && r.includes('\n    at '));
    if (this.detailed && stack) this.out.write(`${stack}\n`);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.error(message, ...rest);
  }

  private line(prefix: string, message: unknown, context?: string): void {
    const text =
      message instanceof Error ? message.message : typeof message === 'string' ? message : JSON.stringify(message);
    this.out.write(`${prefix}${context ? `[${context}] ` : ''}${text.replace(/\s*\n\s*/g, ' ')}\n`);
  }
}

import { type DynamicModule, Global, Module } from '@nestjs/common';
import { pino } from 'pino';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { prettyDestination } from '../logging/pretty.js';
import type { StartupProgress } from './embedded-postgres.js';

export type { StartupProgress } from './embedded-postgres.js';

/**
 * Where the database set-up says what it is doing while a process starts: creating the embedded
 * database, running migrations. It has to be said as it happens; Nest's logger in the HTTP
 * processes holds every record until the application is built (`bufferLogs`), which is after both.
 * A process provides its own (StartupProgressModule.inLog: the server's log); without one, plain
 * lines on stderr (the CLI's stdout carries only its result).
 */
export const STARTUP_PROGRESS = Symbol('STARTUP_PROGRESS');

/** Progress is `info`: a LOG_LEVEL above it (warn, error, fatal, silent) keeps it quiet. */
const quiet = (config: AppConfig) => ['warn', 'error', 'fatal', 'silent'].includes(config.log.level);

/** The default: one plain line each on stderr; details only with LOG_LEVEL debug or trace. */
export function progressOnStderr(config: AppConfig): StartupProgress {
  if (quiet(config)) return () => undefined;
  const details = config.log.level === 'debug' || config.log.level === 'trace';
  return (message, options) => {
    if (!options?.detail || details) process.stderr.write(`${message}\n`);
  };
}

/**
 * Records of the server's log (JSON, or LOG_PRETTY's lines) with the context `Database`, written
 * at once to the log's destination, in the log's format and at its level.
 */
export function progressInLog(config: AppConfig): StartupProgress {
  if (quiet(config)) return () => undefined;
  const destination =
    config.log.destination ?? (config.log.pretty ? prettyDestination() : pino.destination({ dest: 1, sync: true }));
  const logger = pino({ level: config.log.level }, destination as pino.DestinationStream).child({
    context: 'Database',
  });
  return (message) => logger.info(message);
}

/** Imported by a server process: its database set-up reports in its log. */
@Global()
@Module({})
export class StartupProgressModule {
  static inLog(): DynamicModule {
    return {
      module: StartupProgressModule,
      global: true,
      providers: [{ provide: STARTUP_PROGRESS, inject: [APP_CONFIG], useFactory: progressInLog }],
      exports: [STARTUP_PROGRESS],
    };
  }
}

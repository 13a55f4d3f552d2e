import { type DynamicModule, Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type MigrationInterface } from 'typeorm';
import { APP_CONFIG } from '../config/app-config.js';
import { DATABASE_ENDPOINT, type DatabaseEndpoint, openDatabaseEndpoint } from './database-endpoint.js';
import type { AppConfig } from '../config/app-config.js';
import { progressOnStderr, STARTUP_PROGRESS, type StartupProgress } from './startup-progress.js';
import { ChangeFeed } from './change-feed.js';
import { PreparedStatements } from './prepared-statements.js';
import { recordMigrationConfig } from './migration-config.js';
import { pendingCount, runMigrationsLocked } from './run-migrations.js';
import { StartRefusal } from '../logging/start-logs.js';

export interface DatabaseModuleOptions {
  readonly migrations: readonly (new () => MigrationInterface)[];
  /** Run pending migrations at start-up (the standalone process and the API do). */
  readonly migrate: boolean;
  /**
   * Refuse to start, in one line, while migrations are pending (the worker: it runs none, and would
   * otherwise fail on every table it reads and leave failed jobs behind).
   */
  readonly requireMigrated?: boolean;
}

/** The one line a process that runs no migrations says when the database has not had them all. */
export class NotMigrated extends StartRefusal {
  constructor(pending: number) {
    super(
      `the database has ${pending} migration${pending === 1 ? '' : 's'} to run: run \`npm run cli -- migrate\` ` +
        '(or start the API or npm start, which run them), then start this process again',
    );
  }
}

@Global()
@Module({})
class DatabaseEndpointModule implements OnApplicationShutdown {
  constructor(@Inject(DATABASE_ENDPOINT) private readonly endpoint: DatabaseEndpoint) {}

  // Runs after TypeORM's own shutdown hook has closed its pool (module order), so the embedded
  // server is the last thing to stop.
  async onApplicationShutdown(): Promise<void> {
    await this.endpoint.close();
  }
}

/** The one database connection: Postgres from DATABASE_URL, or the embedded PGlite. */
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    // Set when the endpoint is opened, which comes before the migrations (startup-progress.ts).
    let progress: StartupProgress = () => undefined;
    const endpoint = {
      module: DatabaseEndpointModule,
      providers: [
        {
          provide: DATABASE_ENDPOINT,
          inject: [APP_CONFIG, { token: STARTUP_PROGRESS, optional: true }],
          useFactory: (config: AppConfig, given?: StartupProgress) => {
            progress = given ?? progressOnStderr(config);
            recordMigrationConfig(config);
            return openDatabaseEndpoint(config, progress);
          },
        },
      ],
      exports: [DATABASE_ENDPOINT],
    };
    return {
      module: DatabaseModule,
      global: true,
      providers: [PreparedStatements, ChangeFeed],
      exports: [PreparedStatements, ChangeFeed],
      imports: [
        endpoint,
        TypeOrmModule.forRootAsync({
          inject: [DATABASE_ENDPOINT],
          useFactory: (db: DatabaseEndpoint) => ({
            type: 'postgres',
            url: db.url,
            autoLoadEntities: true,
            migrations: [...options.migrations],
            migrationsRun: false,
            synchronize: false,
            extra: { max: db.embedded ? 8 : 20 },
            // A database that does not answer yet is retried; a missing migration is not going to appear.
            toRetry: (err: unknown) => !(err instanceof NotMigrated),
          }),
          dataSourceFactory: async (opts) => {
            const dataSource = await new DataSource(opts!).initialize();
            if (options.migrate) await runMigrationsLocked(dataSource, progress);
            const pending = options.requireMigrated ? await pendingCount(dataSource) : 0;
            if (pending > 0) {
              await dataSource.destroy();
              throw new NotMigrated(pending);
            }
            return dataSource;
          },
        }),
      ],
    };
  }
}

import { type DynamicModule, Module } from '@nestjs/common';
import { ReactorRunnerModule } from '#app/event-store';
import { type AppConfig, HealthModule, LoggingModule, loadConfig, MetricsModule } from '#app/platform';
import { contexts, coreImports } from '../../common/core.js';

/** No HTTP: the reactors that follow the log and the BullMQ processors. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig = loadConfig()): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        // It runs no migrations (the API, npm start and `npm run cli -- migrate` do): it refuses to start before them.
        ...coreImports(config, { migrate: false, requireMigrated: true }),
        LoggingModule,
        // No routes here: the dependency monitor and its connection log lines.
        HealthModule.forRoot('worker'),
        MetricsModule.serve('port'),
        ReactorRunnerModule,
        ...contexts.domain,
        ...contexts.worker,
      ],
    };
  }
}

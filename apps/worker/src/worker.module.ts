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
        ...coreImports(config, { migrate: false }),
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

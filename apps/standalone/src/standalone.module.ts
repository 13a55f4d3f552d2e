import { type DynamicModule, Module } from '@nestjs/common';
import { ReactorRunnerModule } from '#app/event-store';
import {
  type AppConfig,
  HealthModule,
  LoggingModule,
  loadConfig,
  MetricsModule,
  StartupProgressModule,
} from '#app/platform';
import { contexts, coreImports, queueTools } from '../../common/core.js';

/** `npm start`: the API and the worker in one process, the default for a first run. */
@Module({})
export class StandaloneModule {
  static forRoot(config: AppConfig = loadConfig()): DynamicModule {
    return {
      module: StandaloneModule,
      imports: [
        // Creating the embedded database and migrating it are said in the log as they happen.
        StartupProgressModule.inLog(),
        ...coreImports(config, { migrate: true }),
        LoggingModule,
        HealthModule.forRoot('standalone'),
        MetricsModule.serve('http'),
        ReactorRunnerModule,
        ...contexts.domain,
        ...contexts.http,
        ...queueTools(config, 'http'),
        ...contexts.worker,
      ],
    };
  }
}

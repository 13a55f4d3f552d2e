import { type DynamicModule, Module } from '@nestjs/common';
import { type AppConfig, HealthModule, LoggingModule, loadConfig, MetricsModule } from '#app/platform';
import { contexts, coreImports, queueTools } from '../../common/core.js';

/** HTTP only: controllers and the queues they add jobs to; it consumes no queue. */
@Module({})
export class ApiModule {
  static forRoot(config: AppConfig = loadConfig()): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        ...coreImports(config, { migrate: true }),
        LoggingModule,
        HealthModule.forRoot('api'),
        MetricsModule.serve('http'),
        ...contexts.domain,
        ...contexts.http,
        ...queueTools(config, 'http'),
      ],
    };
  }
}

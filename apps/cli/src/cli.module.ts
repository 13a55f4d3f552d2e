import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '#app/platform';
import { contexts, coreImports } from '../../common/core.js';

/** Admin commands need the projections (to replay them) but no HTTP and no queue consumers. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: CliModule, imports: [...coreImports(config, { migrate: false }), ...contexts.domain] };
  }
}

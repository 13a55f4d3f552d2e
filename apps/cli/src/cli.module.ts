import { type DynamicModule, Module } from '@nestjs/common';
import { IdentityAdminModule } from '#app/identity';
import type { AppConfig } from '#app/platform';
import { contexts, coreImports, queueTools } from '../../common/core.js';

/**
 * Admin commands need the projections (to replay them) but no HTTP and no queue consumers, the
 * administrators' commands on users, which only this process loads, and every queue (to count and
 * retry its jobs: registering a queue starts no worker). They bring the schema up to
 * date first, as `npm start` does, except `migrate`, which reports it.
 */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig, options: { migrate: boolean }): DynamicModule {
    return {
      module: CliModule,
      imports: [...coreImports(config, options), ...contexts.domain, IdentityAdminModule, ...queueTools(config, 'cli')],
    };
  }
}

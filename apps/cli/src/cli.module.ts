import { type DynamicModule, Module } from '@nestjs/common';
import { IdentityAdminModule } from '#app/identity';
import type { AppConfig } from '#app/platform';
import { contexts, coreImports } from '../../common/core.js';

/**
 * Admin commands need the projections (to replay them) but no HTTP and no queue consumers, and the
 * administrators' commands on users, which only this process loads. They bring the schema up to
 * date first, as `npm start` does, except `migrate`, which reports it.
 */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig, options: { migrate: boolean }): DynamicModule {
    return { module: CliModule, imports: [...coreImports(config, options), ...contexts.domain, IdentityAdminModule] };
  }
}

import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from './app-config.js';
import { loadConfig } from './load-config.js';

@Global()
@Module({})
export class ConfigModule {
  /** Tests pass a config built with `loadConfig({...})`; processes read the environment. */
  static forRoot(config: AppConfig = loadConfig()): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
  }
}

import { type DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DependencyMonitor, PROCESS_ROLE, type ProcessRole } from './dependency-monitor.js';
import { HealthController } from './health.controller.js';
import { RootController } from './root.controller.js';

/**
 * The dependency monitor of every long-running process, and, where the process serves HTTP, the
 * root index and the health routes. `role` says what readiness needs (dependency-monitor.ts).
 */
@Module({})
export class HealthModule {
  static forRoot(role: ProcessRole): DynamicModule {
    return {
      module: HealthModule,
      imports: [DiscoveryModule],
      providers: [{ provide: PROCESS_ROLE, useValue: role }, DependencyMonitor],
      controllers: role === 'worker' ? [] : [RootController, HealthController],
      exports: [DependencyMonitor],
    };
  }
}

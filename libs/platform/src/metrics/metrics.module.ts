import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { MetricsController } from './metrics.controller.js';
import { MetricsPort } from './metrics-port.js';
import { Metrics } from './metrics.js';

/**
 * The one registry (docs/metrics.md), in every process: what it counts is counted wherever it happens.
 * `serve` adds where a process answers GET /metrics.
 */
@Global()
@Module({ imports: [DiscoveryModule], providers: [Metrics], exports: [Metrics] })
export class MetricsModule {
  /** `http`: the route on the process's HTTP application; `port`: a worker's own server on METRICS_PORT. */
  static serve(on: 'http' | 'port'): DynamicModule {
    return on === 'http'
      ? { module: MetricsHttpModule, controllers: [MetricsController] }
      : { module: MetricsPortModule, providers: [MetricsPort] };
  }
}

@Module({})
class MetricsHttpModule {}

@Module({})
class MetricsPortModule {}

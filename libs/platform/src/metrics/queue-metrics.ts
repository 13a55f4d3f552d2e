import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Queue } from 'bullmq';
import { Metrics } from './metrics.js';

const STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * `uvol_queue_jobs`: each BullMQ queue this process registered, its jobs by state, counted on scrape.
 * Provided by the worker role only (ReactorRunnerModule; docs/metrics.md#series).
 */
@Injectable()
export class QueueMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly discovery: DiscoveryService,
  ) {}

  onModuleInit(): void {
    this.metrics.gaugeOnScrape('uvol_queue_jobs', 'Jobs in each queue by state', ['queue', 'state'], async () => {
      const queues = this.discovery
        .getProviders()
        .map((w) => w.instance as unknown)
        .filter((q): q is Queue => q instanceof Queue);
      const counts = await Promise.all(queues.map((q) => q.getJobCounts(...STATES)));
      return queues.flatMap((q, i) =>
        STATES.map((state) => ({ labels: { queue: q.name, state }, value: counts[i]![state] ?? 0 })),
      );
    });
  }
}

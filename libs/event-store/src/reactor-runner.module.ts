import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { QueueMetrics } from '#app/platform';
import { LogWalk } from './log-walk.js';
import { OwedJobs } from './owed-jobs.js';
import { ReactorLag } from './reactor-lag.js';
import { ReactorRunner } from './reactor-runner.js';
import { Reconciler } from './reconciler.js';

/**
 * Only the worker (and the standalone process) follows the log, and offers again what is owed. It
 * alone exports the gauges of that shared work, the queues' jobs and the reactors' lag: summed over
 * every process's /metrics they count each job once (docs/metrics.md#series).
 */
@Module({
  imports: [DiscoveryModule],
  providers: [ReactorRunner, LogWalk, OwedJobs, Reconciler, ReactorLag, QueueMetrics],
  exports: [ReactorRunner, OwedJobs, Reconciler],
})
export class ReactorRunnerModule {}

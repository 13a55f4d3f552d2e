import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { OwedJobs } from './owed-jobs.js';
import { ReactorRunner } from './reactor-runner.js';
import { Reconciler } from './reconciler.js';

/** Only the worker (and the standalone process) follows the log, and offers again what is owed. */
@Module({
  imports: [DiscoveryModule],
  providers: [ReactorRunner, OwedJobs, Reconciler],
  exports: [ReactorRunner, OwedJobs, Reconciler],
})
export class ReactorRunnerModule {}

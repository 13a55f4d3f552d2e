import { WorkerHost } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Job } from 'bullmq';
import { isDependencyError } from '../health/dependency-errors.js';
import { withoutAddresses } from '../logging/without-addresses.js';
import { workerOf } from './workers-close-first.js';

/**
 * One log line per failed attempt of a job, with its error: a job that failed left nothing in the
 * log (issue 31: two-factor codes a worker could not open, the worker silent). A retry to come is a
 * warning, the last attempt an error (the job is then failed: `npm run cli -- queues:retry`). An
 * outage is the dependency monitor's to log, once, not once per job. The error's message is logged
 * without the e-mail addresses a mail server's refusal names (the log holds ids only).
 */
@Injectable()
export class FailedJobsLog implements OnApplicationBootstrap {
  private readonly logger = new Logger('Jobs');

  constructor(private readonly discovery: DiscoveryService) {}

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const host = wrapper.instance as unknown;
      if (host instanceof WorkerHost) workerOf(host)?.on('failed', (job, err) => this.failed(job, err));
    }
  }

  private failed(job: Job | undefined, err: Error): void {
    if (isDependencyError(err)) return;
    const attempts = job?.opts.attempts ?? 1;
    const made = job?.attemptsMade ?? attempts;
    const last = made >= attempts;
    const line = `job ${job?.queueName ?? '?'}/${job?.id ?? '?'} failed (attempt ${made} of ${attempts}${last ? '' : ', retried'}): ${withoutAddresses(err.message)}`;
    if (last) this.logger.error(line);
    else this.logger.warn(line);
  }
}

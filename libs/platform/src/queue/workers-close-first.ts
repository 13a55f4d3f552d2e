import { WorkerHost } from '@nestjs/bullmq';
import { type BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';

/**
 * Closes every BullMQ worker before any queue closes. @nestjs/bullmq closes workers and queues in
 * the same shutdown phase, in no fixed order, so a job still running (a reminder plan adding its
 * delayed job, a generation chunk) could call a queue that had just closed; on BullMQ's
 * PostgreSQL backend (embedded mode) that call never settles, and the worker's close waits for the
 * job forever. Here, in the phase before, each worker stops taking jobs and finishes its active
 * ones while every queue is still open; the later close of the same worker is then a no-op.
 */
@Injectable()
export class WorkersCloseFirst implements BeforeApplicationShutdown {
  constructor(private readonly discovery: DiscoveryService) {}

  async beforeApplicationShutdown(): Promise<void> {
    const hosts = this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is WorkerHost => instance instanceof WorkerHost);
    await Promise.all(hosts.map((host) => workerOf(host)?.close()));
  }
}

/** The host's worker, or none where it was never started (the getter throws then). */
export function workerOf(host: WorkerHost): WorkerHost['worker'] | undefined {
  try {
    return host.worker;
  } catch {
    return undefined;
  }
}

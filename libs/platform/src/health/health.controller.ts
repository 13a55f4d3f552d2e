import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public } from '../http/public.decorator.js';
import { DependencyMonitor } from './dependency-monitor.js';
import { HealthDocs } from './health.openapi.js';
import type { HealthDto } from './health.responses.js';

/**
 * For load balancers and orchestrators (docs/operations.md#health-and-readiness): liveness says the process
 * answers; readiness that it reaches what its role needs (an API: PostgreSQL; with a worker in the
 * process: Redis too). `/health` is readiness.
 */
@HealthDocs.controller()
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly monitor: DependencyMonitor) {}

  @Get()
  @HealthDocs.check()
  async check(@Res() reply: FastifyReply): Promise<void> {
    await this.ready(reply);
  }

  @Get('ready')
  @HealthDocs.ready()
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const checks = await this.monitor.probe();
    const entry = (name: 'database' | 'queue') => ({ ...checks[name], required: this.monitor.required(name) });
    const details = {
      database: entry('database'),
      queue: entry('queue'),
      ...(checks.storage && { storage: { ...checks.storage, required: this.monitor.required('storage') } }),
    };
    const up = Object.values(details).every((d) => d.status === 'up' || !d.required);
    await reply.status(up ? 200 : 503).send({ status: up ? 'ok' : 'error', details } satisfies HealthDto);
  }

  @Get('live')
  @HealthDocs.live()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}

import { Controller, Get, Res } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { Public } from '../http/public.decorator.js';
import { HealthDocs } from './health.openapi.js';

export const HEALTH_QUEUE = 'health';
const TIMEOUT_MS = 2_000;

type Check = { status: 'up' } | { status: 'down'; error: string };

async function probe(work: () => Promise<unknown>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
  });
  try {
    await Promise.race([work(), timeout]);
    return { status: 'up' };
  } catch (err) {
    return { status: 'down', error: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/** For load balancers and orchestrators: 200 when the database and the queue backend answer, else 503. */
@HealthDocs.controller()
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    @InjectQueue(HEALTH_QUEUE) private readonly queue: Queue,
  ) {}

  @Get()
  @HealthDocs.check()
  async check(@Res() reply: FastifyReply): Promise<void> {
    const [database, queue] = await Promise.all([
      probe(() => this.dataSource.query('SELECT 1')),
      probe(() => this.queue.getJobCounts('waiting')),
    ]);
    const up = database.status === 'up' && queue.status === 'up';
    await reply.status(up ? 200 : 503).send({ status: up ? 'ok' : 'error', details: { database, queue } });
  }
}

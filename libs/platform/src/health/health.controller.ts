import { Controller, Get, Res } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Queue } from 'bullmq';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { Public } from '../http/public.decorator.js';
import { HealthDto } from './health.responses.js';

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
@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    @InjectQueue(HEALTH_QUEUE) private readonly queue: Queue,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Liveness of the database and the queue backend',
    description:
      'For load balancers and orchestrators. Permission: none (no JWT). Each dependency gets two seconds to answer. Not under /api: the Accept rule does not apply.',
  })
  @ApiResponse({ status: 200, type: HealthDto, description: 'The database and the queue backend answer' })
  @ApiResponse({ status: 503, type: HealthDto, description: 'One of them does not; `details` says which and why' })
  async check(@Res() reply: FastifyReply): Promise<void> {
    const [database, queue] = await Promise.all([
      probe(() => this.dataSource.query('SELECT 1')),
      probe(() => this.queue.getJobCounts('waiting')),
    ]);
    const up = database.status === 'up' && queue.status === 'up';
    await reply.status(up ? 200 : 503).send({ status: up ? 'ok' : 'error', details: { database, queue } });
  }
}

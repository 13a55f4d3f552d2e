import { BullModule, getQueueToken } from '@nestjs/bullmq';
import { type DynamicModule, Module } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { ADMIN_QUEUES, QueueAdmin } from './queue-admin.js';
import { QueueDashboard } from './queue-dashboard.js';

/**
 * Every queue registered for the operator's tools: the CLI's queue commands, and with `dashboard`
 * the page at /admin/queues (ADMIN_PASSWORD). A process that does not consume a queue can still
 * count and retry its jobs: registering a queue starts no worker.
 */
@Module({})
export class QueueAdminModule {
  static forRoot(names: readonly string[], options: { dashboard?: boolean } = {}): DynamicModule {
    return {
      module: QueueAdminModule,
      imports: [BullModule.registerQueue(...names.map((name) => ({ name })))],
      providers: [
        {
          provide: ADMIN_QUEUES,
          inject: names.map((name) => getQueueToken(name)),
          useFactory: (...queues: Queue[]) => new Map(names.map((name, i) => [name, queues[i]!])),
        },
        QueueAdmin,
        ...(options.dashboard ? [QueueDashboard] : []),
      ],
      exports: [QueueAdmin],
    };
  }
}

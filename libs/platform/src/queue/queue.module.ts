import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { createPostgresBackend, setDefaultBackendFactory } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DATABASE_ENDPOINT, type DatabaseEndpoint } from '../database/database-endpoint.js';
import { STALL_SETTINGS, StallBoundWorker } from './stall-bound-worker.js';
import { FailedJobsLog } from './failed-jobs-log.js';
import { WorkersCloseFirst } from './workers-close-first.js';

/** Where BullMQ keeps its queues when no Redis is configured: beside the application's tables. */
export const PG_QUEUE_SCHEMA = { embedded: 'public', server: 'bullmq' } as const;

/**
 * BullMQ on Redis when REDIS_URL is set, otherwise on BullMQ's own PostgreSQL backend in the
 * application database. Embedded PGlite shares session state between its multiplexed
 * connections, so there BullMQ cannot switch search_path and lives in `public`.
 */
@Module({})
export class QueueModule {
  static forRoot(): DynamicModule {
    BullModule.workerClass = StallBoundWorker;
    return {
      module: QueueModule,
      global: true,
      providers: [WorkersCloseFirst, FailedJobsLog],
      imports: [
        DiscoveryModule,
        BullModule.forRootAsync({
          inject: [APP_CONFIG, DATABASE_ENDPOINT],
          useFactory: (config: AppConfig, db: DatabaseEndpoint) => {
            StallBoundWorker.settings = db.embedded ? {} : STALL_SETTINGS;
            if (config.queue.redisUrl) {
              // Workers block on Redis, which BullMQ requires to be retried forever. Reconnecting at
              // least every second (BullMQ's own backoff grows to 20 s) puts the queues back within
              // seconds of Redis (docs/operations.md#health-and-readiness).
              return {
                connection: {
                  url: config.queue.redisUrl,
                  maxRetriesPerRequest: null,
                  retryStrategy: (times: number) => Math.min(times * 200, 1_000),
                },
                prefix: config.queue.prefix,
              };
            }
            setDefaultBackendFactory(createPostgresBackend);
            const schema = db.embedded ? PG_QUEUE_SCHEMA.embedded : PG_QUEUE_SCHEMA.server;
            return { connection: { connectionString: db.url, schema, migrate: true }, prefix: config.queue.prefix };
          },
        }),
      ],
      exports: [BullModule],
    };
  }
}

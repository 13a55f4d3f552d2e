import { CqrsModule } from '@nestjs/cqrs';
import { EventStoreModule } from '#app/event-store';
import { ExpensesHttpModule, ExpensesModule, ExpensesWorkerModule } from '#app/expenses';
import { FilesHttpModule, FilesModule } from '#app/files';
import { IdentityHttpModule, IdentityModule, IdentityWorkerModule } from '#app/identity';
import { OrganisationHttpModule, OrganisationModule } from '#app/organisation';
import { RotasHttpModule, RotasModule, RotasWorkerModule } from '#app/rotas';
import { WebhooksHttpModule, WebhooksModule, WebhooksWorkerModule } from '#app/webhooks';
import {
  type AppConfig,
  ConfigModule,
  DatabaseModule,
  MetricsModule,
  QueueModule,
  SecurityModule,
} from '#app/platform';
import { migrations } from '../../migrations/index.js';

/** What every process is built on: configuration, the database, the queues, CQRS and the log. */
export function coreImports(config: AppConfig, options: { migrate: boolean }) {
  return [
    ConfigModule.forRoot(config),
    MetricsModule,
    DatabaseModule.forRoot({ migrations, migrate: options.migrate }),
    QueueModule.forRoot(),
    SecurityModule,
    CqrsModule.forRoot(),
    EventStoreModule,
  ];
}

/** The context modules each process role loads; the bounded contexts add themselves here. */
export const contexts = {
  /** Command handlers, queries, projections: everywhere events are appended or replayed. */
  domain: [IdentityModule, FilesModule, OrganisationModule, ExpensesModule, RotasModule, WebhooksModule],
  /** Controllers (and the global JWT guard). */
  http: [
    IdentityHttpModule,
    FilesHttpModule,
    OrganisationHttpModule,
    ExpensesHttpModule,
    RotasHttpModule,
    WebhooksHttpModule,
  ],
  /** BullMQ processors and reactors. */
  worker: [IdentityWorkerModule, ExpensesWorkerModule, RotasWorkerModule, WebhooksWorkerModule],
};

export function describeMode(config: AppConfig): string {
  if (!config.database.url) return 'embedded: PGlite in DATA_DIR, queues on the same database';
  return config.queue.redisUrl ? 'production: PostgreSQL, queues on Redis' : 'PostgreSQL, queues on PostgreSQL';
}

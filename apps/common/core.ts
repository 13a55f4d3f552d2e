import { CqrsModule } from '@nestjs/cqrs';
import { EventStoreModule } from '#app/event-store';
import { ExpensesHttpModule, ExpensesModule, ExpensesWorkerModule } from '#app/expenses';
import { FILES_QUEUES, FilesHttpModule, FilesModule, FilesWorkerModule } from '#app/files';
import { IdentityHttpModule, IdentityModule, IdentityWorkerModule } from '#app/identity';
import { OrganisationHttpModule, OrganisationModule } from '#app/organisation';
import { PRIVACY_QUEUES, PrivacyHttpModule, PrivacyModule, PrivacyWorkerModule } from '#app/privacy';
import { RotasHttpModule, RotasModule, RotasWorkerModule } from '#app/rotas';
import { WebhooksHttpModule, WebhooksModule, WebhooksWorkerModule } from '#app/webhooks';
import {
  type AppConfig,
  ConfigModule,
  DatabaseModule,
  MetricsModule,
  QueueModule,
  SecurityModule,
  ShutdownDeadlineModule,
} from '#app/platform';
import { QueueAdminModule } from '#app/platform';
import { EXPENSES_QUEUES } from '#app/expenses';
import { IDENTITY_QUEUES } from '#app/identity';
import { ROTAS_QUEUES } from '#app/rotas';
import { WEBHOOKS_QUEUES } from '#app/webhooks';
import { migrations } from '../../migrations/index.js';

/** What every process is built on: configuration, the database, the queues, CQRS and the log. */
export function coreImports(config: AppConfig, options: { migrate: boolean; requireMigrated?: boolean }) {
  return [
    ConfigModule.forRoot(config),
    MetricsModule,
    DatabaseModule.forRoot({ migrations, ...options }),
    QueueModule.forRoot(),
    SecurityModule,
    CqrsModule.forRoot(),
    EventStoreModule,
    ShutdownDeadlineModule,
  ];
}

/** The context modules each process role loads; the bounded contexts add themselves here. */
export const contexts = {
  /** Command handlers, queries, projections: everywhere events are appended or replayed. */
  domain: [IdentityModule, FilesModule, OrganisationModule, ExpensesModule, RotasModule, WebhooksModule, PrivacyModule],
  /** Controllers (and the global JWT guard). */
  http: [
    IdentityHttpModule,
    FilesHttpModule,
    OrganisationHttpModule,
    ExpensesHttpModule,
    RotasHttpModule,
    WebhooksHttpModule,
    PrivacyHttpModule,
  ],
  /** BullMQ processors and reactors. */
  worker: [
    IdentityWorkerModule,
    FilesWorkerModule,
    ExpensesWorkerModule,
    RotasWorkerModule,
    WebhooksWorkerModule,
    PrivacyWorkerModule,
  ],
};

/** Every queue of every context: the operator's tools list them all (docs/operations.md#queues). */
export const queues: readonly string[] = [
  ...IDENTITY_QUEUES,
  ...FILES_QUEUES,
  ...EXPENSES_QUEUES,
  ...ROTAS_QUEUES,
  ...PRIVACY_QUEUES,
  ...WEBHOOKS_QUEUES,
];

/** The operator's queue tools: the CLI's commands; in an HTTP process the dashboard, when ADMIN_PASSWORD is set. */
export function queueTools(config: AppConfig, role: 'http' | 'cli') {
  if (role === 'cli') return [QueueAdminModule.forRoot(queues)];
  return config.admin.password ? [QueueAdminModule.forRoot(queues, { dashboard: true })] : [];
}

export function describeMode(config: AppConfig): string {
  if (!config.database.url) return 'embedded: PGlite in DATA_DIR, queues on the same database';
  return config.queue.redisUrl ? 'production: PostgreSQL, queues on Redis' : 'PostgreSQL, queues on PostgreSQL';
}

import { Module } from '@nestjs/common';
import { ExpensesModule } from '#app/expenses';
import { FilesModule } from '#app/files';
import { IdentityModule } from '#app/identity';
import { OrganisationModule } from '#app/organisation';
import { OutboxModule } from '#app/platform';
import { RotasModule } from '#app/rotas';
import { AnonymiseUsersHandler } from './anonymise/anonymise-users.command.js';
import { PersonalDataExport } from './export/personal-data-export.js';
import { LastActivityProjection } from './retention/last-activity.projection.js';
import { RetentionQueries } from './retention/retention.queries.js';
import { RetentionSweep } from './retention/retention-sweep.js';

/**
 * The privacy context's domain (docs/privacy.md): anonymisation, retention and the personal-data
 * export, on top of identity, rotas, expenses, files and webhooks (none of which imports it, and it
 * asks each through its index.ts). Providers of both roles.
 */
@Module({
  imports: [IdentityModule, OrganisationModule, OutboxModule, RotasModule, ExpensesModule, FilesModule],
  providers: [AnonymiseUsersHandler, PersonalDataExport, LastActivityProjection, RetentionQueries, RetentionSweep],
  exports: [IdentityModule, PersonalDataExport, RetentionSweep],
})
export class PrivacyModule {}

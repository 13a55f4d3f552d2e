import { Module } from '@nestjs/common';
import { IdentityModule } from '#app/identity';
import { OrganisationModule } from '#app/organisation';
import { OutboxModule } from '#app/platform';
import { AnonymiseUsersHandler } from './anonymise/anonymise-users.command.js';
import { LastActivityProjection } from './retention/last-activity.projection.js';
import { RetentionQueries } from './retention/retention.queries.js';
import { RetentionSweep } from './retention/retention-sweep.js';

/** Personal data (docs/privacy.md): providers of both roles. Retention: its read model and the sweep. */
@Module({
  imports: [IdentityModule, OrganisationModule, OutboxModule],
  providers: [AnonymiseUsersHandler, LastActivityProjection, RetentionQueries, RetentionSweep],
  exports: [RetentionSweep],
})
export class PrivacyModule {}

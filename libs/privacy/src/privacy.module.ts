import { Module } from '@nestjs/common';
import { ExpensesModule } from '#app/expenses';
import { FilesModule } from '#app/files';
import { IdentityModule } from '#app/identity';
import { RotasModule } from '#app/rotas';
import { AnonymiseUsersHandler } from './anonymise/anonymise-users.command.js';
import { PersonalDataExport } from './export/personal-data-export.js';

/**
 * The privacy context's domain (docs/privacy.md): anonymisation, retention and the personal-data
 * export, on top of identity, rotas, expenses, files and webhooks (none of which imports it, and it
 * asks each through its index.ts). Providers of both roles.
 */
@Module({
  imports: [IdentityModule, RotasModule, ExpensesModule, FilesModule],
  providers: [AnonymiseUsersHandler, PersonalDataExport],
  exports: [IdentityModule, PersonalDataExport],
})
export class PrivacyModule {}

import { Module } from '@nestjs/common';
import { ExpensesModule } from '#app/expenses';
import { FilesModule } from '#app/files';
import { IdentityModule } from '#app/identity';
import { RotasModule } from '#app/rotas';
import { PersonalDataExport } from './export/personal-data-export.js';

/**
 * Personal data across the contexts (docs/privacy.md): it sits on top of identity, rotas, expenses
 * and files and asks each through its index.ts; none of them imports it. Providers of both roles.
 */
@Module({
  imports: [IdentityModule, FilesModule, ExpensesModule, RotasModule],
  providers: [PersonalDataExport],
  exports: [PersonalDataExport],
})
export class PrivacyModule {}

import { Module } from '@nestjs/common';
import { ExpensesModule } from '#app/expenses';
import { IdentityModule } from '#app/identity';
import { RotasModule } from '#app/rotas';
import { AnonymiseUsersHandler } from './anonymise/anonymise-users.command.js';

/**
 * The privacy context's domain (docs/privacy.md): anonymisation, retention and the personal-data
 * export, on top of identity, rotas, expenses, files and webhooks (none of which imports it).
 */
@Module({
  imports: [IdentityModule, RotasModule, ExpensesModule],
  providers: [AnonymiseUsersHandler],
  exports: [IdentityModule],
})
export class PrivacyModule {}

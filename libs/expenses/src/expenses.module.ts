import { Module } from '@nestjs/common';
import { FilesModule } from '#app/files';
import { IdentityModule } from '#app/identity';
import { OrganisationModule } from '#app/organisation';
import { CreateClaimHandler, UpdateClaimHandler } from './claim/claim.commands.js';
import { ClaimQueries } from './claim/claim.queries.js';
import { ClaimsProjection } from './claim/claims.projection.js';
import { AttachFileHandler, DeleteExpenseHandler, SaveExpenseHandler } from './expense/expense.commands.js';
import { ExpenseQueries } from './expense/expense.queries.js';
import { ExpensesProjection } from './expense/expenses.projection.js';
import { DeleteExpenseRateHandler, SaveExpenseRateHandler } from './rates/expense-rates.commands.js';
import { IdBlocks } from './next-id.js';
import { ExpenseSettingsProjection } from './settings.projection.js';
import { SubmissionMailReactor } from './submission/submission-mail.reactor.js';
import { ExpenseSettingsQueries } from './types/expense-settings.queries.js';
import { DeleteExpenseTypeHandler, SaveExpenseTypeHandler } from './types/expense-types.commands.js';

@Module({
  imports: [IdentityModule, FilesModule, OrganisationModule],
  providers: [
    ExpenseSettingsQueries, ExpenseQueries, ClaimQueries, IdBlocks,
    ExpenseSettingsProjection, ExpensesProjection, ClaimsProjection,
    SaveExpenseTypeHandler, DeleteExpenseTypeHandler, SaveExpenseRateHandler, DeleteExpenseRateHandler,
    SaveExpenseHandler, DeleteExpenseHandler, AttachFileHandler, CreateClaimHandler, UpdateClaimHandler,
    // Known everywhere (projections:status lists it); only the worker runs it.
    SubmissionMailReactor,
  ],
  exports: [ExpenseQueries, ClaimQueries, ExpenseSettingsQueries, FilesModule, IdentityModule],
})
export class ExpensesModule {}

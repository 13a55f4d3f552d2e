import { Module } from '@nestjs/common';
import { FilesModule } from '#app/files';
import { IdentityModule } from '#app/identity';
import { OrganisationModule } from '#app/organisation';
import { CreateClaimHandler } from './claim/create-claim.command.js';
import { UpdateClaimHandler } from './claim/update-claim.command.js';
import { ClaimQueries } from './claim/claim.queries.js';
import { ClaimsProjection } from './claim/claims.projection.js';
import { AttachFileHandler } from './expense/attach-file.command.js';
import { DeleteExpenseHandler } from './expense/delete-expense.command.js';
import { SaveExpenseHandler } from './expense/save-expense.command.js';
import { ExpenseQueries } from './expense/expense.queries.js';
import { ExpensesProjection } from './expense/expenses.projection.js';
import { ExpensesPolicy } from './expenses.policy.js';
import { ExpenseRecords } from './public-records.js';
import { IdBlocks } from './next-id.js';
import { ExpenseSettingsProjection } from './settings.projection.js';
import { SubmissionMailReactor } from './submission/submission-mail.reactor.js';
import { ExpenseSettingsQueries } from './types/expense-settings.queries.js';
import { DeleteListedSettingHandler } from './types/delete-listed-setting.command.js';
import { SaveListedSettingHandler } from './types/save-listed-setting.command.js';
// Declares which fields of expenses's events are whose personal data (sealed in the log).
import './expenses.personal-data.js';

@Module({
  imports: [IdentityModule, FilesModule, OrganisationModule],
  providers: [
    ExpensesPolicy,
    ExpenseRecords,
    ExpenseSettingsQueries,
    ExpenseQueries,
    ClaimQueries,
    IdBlocks,
    ExpenseSettingsProjection,
    ExpensesProjection,
    ClaimsProjection,
    SaveListedSettingHandler,
    DeleteListedSettingHandler,
    SaveExpenseHandler,
    DeleteExpenseHandler,
    AttachFileHandler,
    CreateClaimHandler,
    UpdateClaimHandler,
    // Known everywhere (projections:status lists it); only the worker runs it.
    SubmissionMailReactor,
  ],
  exports: [
    ExpensesPolicy,
    ExpenseRecords,
    ExpenseQueries,
    ClaimQueries,
    ExpenseSettingsQueries,
    FilesModule,
    IdentityModule,
  ],
})
export class ExpensesModule {}

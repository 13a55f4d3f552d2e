import { Module } from '@nestjs/common';
import { ExpensesModule } from './expenses.module.js';
import { ClaimHistoryController } from './http/claim-history.controller.js';
import { ClaimsController } from './http/claims.controller.js';
import { ExpenseSettingsController } from './http/expense-settings.controller.js';
import { ExpensesController } from './http/expenses.controller.js';

@Module({
  imports: [ExpensesModule],
  controllers: [ExpenseSettingsController, ExpensesController, ClaimsController, ClaimHistoryController],
})
export class ExpensesHttpModule {}

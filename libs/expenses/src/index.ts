export { ExpensesModule } from './expenses.module.js';
export { ExpensesHttpModule } from './expenses-http.module.js';
export { EXPENSES_QUEUES, ExpensesWorkerModule } from './expenses-worker.module.js';
export { ExpenseRecords, type ExpensesPersonalData } from './public-records.js';
export type { ClaimView } from './claim/claim.queries.js';
export type { ExpenseView } from './expense/expense.queries.js';
export { ClaimDto } from './http/claim.responses.js';
export { ExpenseDto } from './http/expense.responses.js';

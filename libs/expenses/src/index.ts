export { ExpensesModule } from './expenses.module.js';
export { ExpensesHttpModule } from './expenses-http.module.js';
export { ExpensesWorkerModule } from './expenses-worker.module.js';

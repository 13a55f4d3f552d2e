import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { OutboxModule } from '#app/platform';
import { RecordSubmissionMailedHandler } from './claim/record-submission-mailed.command.js';
import { ExpensesModule } from './expenses.module.js';
import { EXPENSES_MAIL } from './submission/submission-mail.reactor.js';
import { SubmissionMailProcessor } from './submission/submission-mail.processor.js';

/** The context's queues, for the operator's tools (queues:status, the dashboard). */
export const EXPENSES_QUEUES: readonly string[] = [EXPENSES_MAIL];

/** The finance mail, and the command only it issues (the worker's record that the mail went out). */
@Module({
  imports: [ExpensesModule, OutboxModule, BullModule.registerQueue({ name: EXPENSES_MAIL })],
  providers: [SubmissionMailProcessor, RecordSubmissionMailedHandler],
})
export class ExpensesWorkerModule {}

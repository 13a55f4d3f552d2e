import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { OutboxModule } from '#app/platform';
import { ExpensesModule } from './expenses.module.js';
import { EXPENSES_MAIL } from './submission/submission-mail.reactor.js';
import { SubmissionMailProcessor } from './submission/submission-mail.processor.js';

@Module({ imports: [ExpensesModule, OutboxModule, BullModule.registerQueue({ name: EXPENSES_MAIL })], providers: [SubmissionMailProcessor] })
export class ExpensesWorkerModule {}

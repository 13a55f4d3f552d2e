import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job, JobType, Queue } from 'bullmq';
import { IDENTITY_MESSAGE_PURGE, type MessagePurgeJob } from './message-purge.reactor.js';
import { IDENTITY_MESSAGES, type TwoFactorMessageJob } from './two-factor-messages.reactor.js';

/** Every state a job of the two-factor queue can be kept in. */
const STATES: JobType[] = ['completed', 'failed', 'wait', 'waiting', 'delayed', 'prioritized', 'active'];
const PAGE = 500;

/** The job's data without what reaches the person: no destination, no sealed code. */
export const redacted = (data: TwoFactorMessageJob): TwoFactorMessageJob => ({
  ...data,
  destination: '',
  sealedKey: '',
});

/**
 * Redacts, in the two-factor messages' queue, every job of an anonymised user (docs/privacy.md#what-
 * is-purged-and-file-deletion): its data keeps ids and times, its destination and sealed code go.
 * The jobs stay (a reactor's job the queue no longer has would be offered again from the log), and
 * one not run yet is dropped when it runs (two-factor-messages.processor.ts).
 */
@Processor(IDENTITY_MESSAGE_PURGE)
export class MessagePurgeProcessor extends WorkerHost {
  constructor(@InjectQueue(IDENTITY_MESSAGES) private readonly messages: Queue<TwoFactorMessageJob>) {
    super();
  }

  async process(job: Job<MessagePurgeJob>): Promise<number> {
    let redactedJobs = 0;
    for (let start = 0; ; start += PAGE) {
      const jobs = await this.messages.getJobs(STATES, start, start + PAGE - 1, true);
      for (const found of jobs) {
        if (!found || found.data.userId !== job.data.userId || found.data.destination === '') continue;
        await found.updateData(redacted(found.data));
        redactedJobs++;
      }
      if (jobs.length < PAGE) break;
    }
    return redactedJobs;
  }
}

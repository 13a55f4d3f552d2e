import { Inject } from '@nestjs/common';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { EventStore } from '#app/event-store';
import { APP_CONFIG, type AppConfig, Mailer, SecretBox, SmsSender } from '#app/platform';
import { streamOf } from '../directory/directory.events.js';
import { CHALLENGE_TTL_SECONDS } from '../login/two-factor.js';
import { redacted } from './message-purge.processor.js';
import { IDENTITY_MESSAGES, type TwoFactorMessageJob } from './two-factor-messages.reactor.js';

const MINUTES = Math.round(CHALLENGE_TTL_SECONDS / 60);

/** Opens the sealed key and sends it; the job id (the event id) doubles as the Message-ID. */
@Processor(IDENTITY_MESSAGES)
export class TwoFactorMessagesProcessor extends WorkerHost {
  constructor(
    private readonly mailer: Mailer,
    private readonly sms: SmsSender,
    private readonly secrets: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly store: EventStore,
  ) {
    super();
  }

  async process(job: Job<TwoFactorMessageJob>): Promise<void> {
    const { method, destination, sealedKey, expiresAt, userId } = job.data;
    if (new Date(expiresAt) <= new Date()) return; // too late to be of use
    // A message still owed to a user anonymised since is dropped (docs/privacy.md, effect 5).
    if (await this.anonymised(userId)) {
      await job.updateData(redacted(job.data));
      return;
    }
    const key = this.secrets.open(sealedKey);
    if (method === 'sms')
      return this.sms.send(destination, `Your sign-in code is ${key}. It expires in ${MINUTES} minutes.`);
    if (method === 'email') {
      return this.mailer.send({
        to: destination,
        subject: 'Your sign-in code',
        text: `Your sign-in code is ${key}\n\nIt expires in ${MINUTES} minutes. If you did not try to sign in, you can ignore this message.\n`,
        messageId: `two-factor-${job.id}`,
      });
    }
    const link = `${this.config.http.publicUrl}/auth/magic-link?key=${encodeURIComponent(key)}`;
    return this.mailer.send({
      to: destination,
      subject: 'Your sign-in link',
      text:
        `Open this link to finish signing in:\n\n${link}\n\n` +
        `It expires in ${MINUTES} minutes. If you did not try to sign in, you can ignore this message.\n`,
      messageId: `two-factor-${job.id}`,
    });
  }

  /** Whether the user's stream records identity.UserAnonymised. */
  private async anonymised(userId: number | undefined): Promise<boolean> {
    if (userId === undefined) return false;
    const events = await this.store.readStream(streamOf.user(userId));
    return events.some((e) => e.type === 'identity.UserAnonymised');
  }
}

import { Injectable, Logger, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { MailMessage } from './mail-message.js';
import { Mailer } from './mailer.js';
import { MessagingModule } from './messaging.module.js';
import { nonBlank } from './recipient.js';

/**
 * Sends an outbox message once per key, with the key as its Message-ID. The attempt is recorded
 * before the send and the send after it (docs/adr/0009-postgresql-records-owed-work.md#what-remains):
 * a job retried after a worker restart finds the send recorded and sends nothing; one that died
 * between the mail server accepting the message and the record sends it again with the same
 * Message-ID, so receivers that de-duplicate by it drop the repeat, and logs it as a possible duplicate.
 */
@Injectable()
export class OutboxMailer {
  private readonly logger = new Logger('Outbox');

  constructor(
    private readonly mailer: Mailer,
    private readonly dataSource: DataSource,
  ) {}

  /** A message to nobody (an anonymised user has no address) is dropped: nothing is sent or recorded. */
  async sendOnce(key: string, message: MailMessage): Promise<'sent' | 'already sent' | 'dropped'> {
    if (!nonBlank(message.to)) return 'dropped';
    const attempt = await this.attempt(key);
    if (attempt === 'already sent') return attempt;
    const messageId = message.messageId ?? key;
    if (attempt.earlier > 0) {
      this.logger.warn(
        { key, message_id: messageId, earlier_attempts: attempt.earlier },
        'possible duplicate: an earlier attempt may have gone out; sending again with the same Message-ID',
      );
    }
    try {
      await this.mailer.send({ ...message, messageId });
    } catch (err) {
      if (surelyNotSent(err)) await this.withdraw(key).catch(() => undefined);
      throw err;
    }
    await this.dataSource.query(`UPDATE mail_deliveries SET sent_at = now() WHERE key = $1`, [key]);
    return 'sent';
  }

  /**
   * Which of these keys the outbox holds as gone or possibly gone: sent, or attempted by a send
   * that may have reached the mail server (a reconciler leaves their messages alone: docs/adr/0009).
   */
  async recorded(keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows: { key: string }[] = await this.dataSource.query(
      `SELECT key FROM mail_deliveries WHERE key = ANY($1) AND (sent_at IS NOT NULL OR attempts > 0)`,
      [keys],
    );
    return new Set(rows.map((r) => r.key));
  }

  /** Records an attempt; `earlier` counts those before it that may have gone out without being recorded as sent. */
  private async attempt(key: string): Promise<'already sent' | { earlier: number }> {
    const [row]: { attempts: number }[] = await this.dataSource.query(
      `INSERT INTO mail_deliveries (key, attempted_at, attempts) VALUES ($1, now(), 1)
       ON CONFLICT (key) DO UPDATE SET attempted_at = now(), attempts = mail_deliveries.attempts + 1
       WHERE mail_deliveries.sent_at IS NULL
       RETURNING attempts`,
      [key],
    );
    return row ? { earlier: row.attempts - 1 } : 'already sent';
  }

  /** The mail server said no, or was never reached: this attempt did not go out. */
  private async withdraw(key: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE mail_deliveries SET attempts = greatest(attempts - 1, 0) WHERE key = $1 AND sent_at IS NULL`,
      [key],
    );
  }
}

/** A negative SMTP reply, or a connection that could not be made: nothing was accepted. */
function surelyNotSent(err: unknown): boolean {
  const e = err as { responseCode?: unknown; syscall?: unknown } | null;
  return typeof e?.responseCode === 'number' || e?.syscall === 'connect';
}

/** Mail that must go once (needs the database for its record of what was sent). */
@Module({ imports: [MessagingModule], providers: [OutboxMailer], exports: [OutboxMailer] })
export class OutboxModule {}

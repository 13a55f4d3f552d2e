import { Injectable, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { MailMessage } from './mail-message.js';
import { Mailer } from './mailer.js';
import { MessagingModule } from './messaging.module.js';

/**
 * Sends an outbox message once per key. A job retried after a worker restart finds the key
 * recorded and sends nothing; the one gap left (a crash between the server accepting the message
 * and the record) is covered by the Message-ID, which stays the same, so the receiving side can
 * tell a repeat.
 */
@Injectable()
export class OutboxMailer {
  constructor(
    private readonly mailer: Mailer,
    private readonly dataSource: DataSource,
  ) {}

  async sendOnce(key: string, message: MailMessage): Promise<'sent' | 'already sent'> {
    const [done] = await this.dataSource.query(`SELECT 1 FROM mail_deliveries WHERE key = $1`, [key]);
    if (done) return 'already sent';
    await this.mailer.send({ ...message, messageId: message.messageId ?? key });
    await this.dataSource.query(`INSERT INTO mail_deliveries (key) VALUES ($1) ON CONFLICT DO NOTHING`, [key]);
    return 'sent';
  }

  /** Which of these keys the outbox holds (a reconciler leaves their messages alone: docs/adr/0009). */
  async recorded(keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows: { key: string }[] = await this.dataSource.query(`SELECT key FROM mail_deliveries WHERE key = ANY($1)`, [
      keys,
    ]);
    return new Set(rows.map((r) => r.key));
  }
}

/** Mail that must go once (needs the database for its record of what was sent). */
@Module({ imports: [MessagingModule], providers: [OutboxMailer], exports: [OutboxMailer] })
export class OutboxModule {}

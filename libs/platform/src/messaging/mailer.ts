import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { MailMessage } from './mail-message.js';
import { writeSinkFile } from './sink-file.js';
import { nonBlank } from './recipient.js';

/**
 * Sends mail through SMTP_URL when it is set. Without it the message is rendered exactly as it
 * would travel and kept as an `.eml` file under DATA_DIR/mail, so a first run needs no mail server
 * and a developer can open what would have been sent.
 */
@Injectable()
export class Mailer implements OnModuleDestroy {
  private readonly transport: Transporter;
  private readonly toSink: boolean;

  constructor(@Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'mail'>) {
    const { smtpUrl } = config.mail;
    this.toSink = !smtpUrl;
    this.transport = smtpUrl
      ? nodemailer.createTransport(smtpUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  /** A message to nobody (a blank `to`: an anonymised user has no address) is dropped, not sent. */
  async send(message: MailMessage): Promise<void> {
    if (!nonBlank(message.to)) return;
    const sent = await this.transport.sendMail(this.toOptions(message));
    // With `buffer: true` the stream transport hands back the whole rendered message.
    if (this.toSink) await writeSinkFile(this.config.mail.sinkDir, 'eml', sent.message as Buffer);
  }

  onModuleDestroy(): void {
    this.transport.close();
  }

  private toOptions(message: MailMessage): SendMailOptions {
    const { to, subject, text, html, attachments, messageId } = message;
    return {
      from: this.config.mail.from,
      to,
      subject,
      text,
      ...(html === undefined ? {} : { html }),
      ...(attachments === undefined ? {} : { attachments }),
      ...(messageId === undefined ? {} : { messageId: messageIdHeader(messageId) }),
    };
  }
}

function messageIdHeader(id: string): string {
  return id.includes('@') ? id : `<${id}@uvol>`;
}

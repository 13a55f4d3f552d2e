export interface MailAttachment {
  filename: string;
  content: string | Buffer;
  contentType?: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /**
   * A stable id (an outbox row id, say) so that a retried send reaches the recipient as the same
   * message and mail clients can fold the duplicates. Sent as `<id@uvol>`; a value that already
   * holds an `@` is taken as a complete Message-ID.
   */
  messageId?: string;
}

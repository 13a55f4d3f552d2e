import ical, { type VEvent } from 'node-ical';
import { type CaughtMail, mailText } from './mail-catcher.js';

/** An attachment of a raw MIME message, decoded (nodemailer writes text parts as base64 or quoted-printable). */
export function attachment(raw: string, filename: string): string | null {
  const at = raw.search(new RegExp(`filename="?${filename.replace('.', '\\.')}"?`));
  if (at < 0) return null;
  const headers = raw.slice(raw.lastIndexOf('\r\n--', at), raw.indexOf('\r\n\r\n', at));
  const body = raw.slice(raw.indexOf('\r\n\r\n', at) + 4, raw.indexOf('\r\n--', at));
  if (/content-transfer-encoding:\s*base64/i.test(headers))
    return Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) return mailText(`\r\n\r\n${body}`);
  return body;
}

/** The calendar of an attachment as node-ical reads it back: its METHOD and its events. */
export function calendarOf(mail: CaughtMail, filename: string): { method: string | undefined; events: VEvent[] } {
  const content = attachment(mail.raw, filename);
  if (content === null) throw new Error(`no ${filename} in the mail`);
  const parsed = ical.sync.parseICS(content);
  return {
    method: parsed.vcalendar?.method,
    events: Object.values(parsed).filter((c): c is VEvent => c?.type === 'VEVENT'),
  };
}

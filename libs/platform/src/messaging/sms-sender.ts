import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { writeSinkFile } from './sink-file.js';
import { nonBlank } from './recipient.js';

// Long enough for a slow gateway, short enough that a queued job fails and is retried rather
// than holding a worker while the person waits for a code.
const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * Sends two-factor texts: POSTed as JSON `{to, body}` to SMS_WEBHOOK_URL when it is set (the
 * gateway is the operator's choice), otherwise written as JSON files under DATA_DIR/sms.
 */
@Injectable()
export class SmsSender {
  constructor(@Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'sms'>) {}

  /** A text to nobody (a blank `to`: an anonymised user has no phone) is dropped, not sent. */
  async send(to: string, body: string): Promise<void> {
    if (!nonBlank(to)) return;
    const { webhookUrl, sinkDir } = this.config.sms;
    if (webhookUrl) {
      await postToWebhook(webhookUrl, { to, body });
      return;
    }
    const at = new Date();
    await writeSinkFile(sinkDir, 'json', `${JSON.stringify({ to, body, sent_at: at.toISOString() }, null, 2)}\n`, at);
  }
}

// The URL stays out of the error messages: gateways often carry their credentials in it.
async function postToWebhook(url: string, text: { to: string; body: string }): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(text),
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
  } catch (err) {
    throw new Error(`SMS webhook unreachable: ${(err as Error).message}`, { cause: err });
  }
  // The answer's body is not needed; releasing it lets the connection be reused.
  await response.body?.cancel();
  if (!response.ok) throw new Error(`SMS webhook answered HTTP ${response.status} ${response.statusText}`.trimEnd());
}

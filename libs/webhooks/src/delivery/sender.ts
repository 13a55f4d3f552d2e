import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig, Metrics, SecretBox } from '#app/platform';
import { addressesToCall, resolveHost } from '../endpoint/url-check.js';
import { PING } from '../event-types.js';
import { Deliveries, type DueDelivery } from './deliveries.js';
import { pinnedPost } from './pinned-post.js';
import { nextRetryDelayMs } from './retry-schedule.js';

/** docs/webhooks.md#delivery: a 2xx within 10 seconds is success. */
export const TIMEOUT_MS = 10_000;
/** A lease outlives the attempt, so a live sender never loses its delivery to the sweep. */
export const LEASE_MS = TIMEOUT_MS + 5_000;

interface Target {
  url: string;
  enabled: boolean;
  secrets: string[];
}

/**
 * Sends one delivery (docs/webhooks.md#delivery): POST of the stored body, signed per Standard
 * Webhooks with the endpoint's secret (and the previous one for 24 hours after a rotation), to the
 * address that was checked, redirects not followed, 10 s timeout; records the outcome and when to try again. A shutdown
 * aborts what is in flight and hands it back uncounted.
 */
@Injectable()
export class WebhookSender implements OnModuleDestroy {
  private readonly logger = new Logger(WebhookSender.name);
  private readonly stop = new AbortController();

  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: Deliveries,
    private readonly secrets: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  get stopping(): boolean {
    return this.stop.signal.aborted;
  }

  onModuleDestroy(): void {
    this.stop.abort();
  }

  /** One attempt; 'released' when a shutdown cut it short. */
  async attempt(delivery: DueDelivery): Promise<'delivered' | 'retry' | 'failed' | 'released'> {
    // docs/webhooks.md#deliveries: last_attempt_at is when the attempt started, the moment its webhook-timestamp names.
    const startedAt = new Date();
    const target = await this.target(delivery.endpointId);
    if (!target) {
      // The endpoint was deleted: nothing to send to.
      await this.deliveries.recordAttempt(delivery.id, startedAt, { status: null, delivered: false, retryAt: null });
      this.metrics.webhookDelivery('failed');
      return 'failed';
    }
    if (!target.enabled && delivery.eventType !== PING) {
      // Disabled since the claim: it waits, uncounted, for the endpoint to be enabled (docs/webhooks.md#delivery).
      await this.deliveries.release([delivery.id]);
      return 'released';
    }
    let status: number | null = null;
    try {
      const signal = AbortSignal.any([AbortSignal.timeout(TIMEOUT_MS), this.stop.signal]);
      // Resolved and checked once, and the connection pinned to what was checked (docs/webhooks.md#pinning).
      const addresses = await addressesToCall(target.url, this.config.webhooks.allowPrivate, resolveHost);
      const signature = target.secrets.map((s) => new Webhook(s).sign(delivery.id, startedAt, delivery.body)).join(' ');
      status = await pinnedPost({
        url: target.url,
        addresses,
        body: delivery.body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'uvol-webhooks',
          'webhook-id': delivery.id,
          'webhook-timestamp': String(Math.floor(startedAt.getTime() / 1000)),
          'webhook-signature': signature,
        },
        signal,
      });
    } catch (err) {
      if (this.stopping) {
        await this.deliveries.release([delivery.id]);
        return 'released';
      }
      this.logger.debug(`webhook ${delivery.id}: ${(err as Error).message}`);
    }
    const delivered = status !== null && status >= 200 && status < 300;
    const delay = delivered ? null : nextRetryDelayMs(delivery.attempts + 1, this.config.webhooks.retrySecondMs);
    await this.deliveries.recordAttempt(delivery.id, startedAt, {
      status,
      delivered,
      retryAt: delay === null ? null : new Date(Date.now() + delay),
    });
    const outcome = delivered ? 'delivered' : delay === null ? 'failed' : 'retry';
    this.metrics.webhookDelivery(outcome === 'retry' ? 'retried' : outcome);
    return outcome;
  }

  /** Where a delivery goes, whether it is enabled, and the secrets that sign it; null for a deleted endpoint. */
  private async target(endpointId: number): Promise<Target | null> {
    const [row]: {
      url: string;
      enabled: boolean;
      secret: string;
      previous_secret: string | null;
      previous_live: boolean;
    }[] = await this.dataSource.query(
      `SELECT url, enabled, secret, previous_secret, previous_until > now() AS previous_live FROM webhook_endpoints WHERE id = $1`,
      [endpointId],
    );
    if (!row) return null;
    const secrets = [row.secret, ...(row.previous_secret && row.previous_live ? [row.previous_secret] : [])];
    return { url: row.url, enabled: row.enabled, secrets: secrets.map((s) => this.secrets.open(s)) };
  }
}

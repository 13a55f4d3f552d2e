import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { isDependencyError } from '#app/platform';
import { Deliveries } from './deliveries.js';
import { DeliveryQueue } from './delivery-queue.js';

const SWEEP_MS = 5_000;

/**
 * At least once across crashes and a Redis outage (docs/webhooks.md#at-least-once): at start and
 * every 5 s the worker wakes every endpoint PostgreSQL says is owed a delivery now that no sender
 * holds: a drain job lost with Redis, or a sender that died with its lease, costs a few seconds.
 */
@Injectable()
export class DeliverySweep implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DeliverySweep.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly deliveries: Deliveries,
    private readonly queue: DeliveryQueue,
  ) {}

  onApplicationBootstrap(): void {
    const tick = () => {
      this.running = this.sweep().finally(() => (this.running = undefined));
    };
    tick();
    this.timer = setInterval(() => this.running ?? tick(), SWEEP_MS);
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  async sweep(): Promise<void> {
    try {
      for (const endpointId of await this.deliveries.endpointsDue()) await this.queue.wake(endpointId);
    } catch (err) {
      // An outage is the dependency monitor's to log, once each way (docs/http-conventions.md#dependency-outages).
      if (!isDependencyError(err)) this.logger.warn(`webhook sweep: ${(err as Error).message}; next in ${SWEEP_MS} ms`);
    }
  }
}

import {
  Global,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';

/** What closing may take before the process exits anyway: half the 10 s docs/process-lifecycle.md#stopping promises, the rest for a loaded machine. */
export const SHUTDOWN_DEADLINE_MS = 5_000;
const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Every process exits within 10 s of SIGTERM, whatever is down (docs/process-lifecycle.md#stopping).
 * Nest's shutdown hooks close the app on the signal; a connection that waits for a server that is
 * gone (ioredis and pg reconnecting, BullMQ closing its blocking connection) can hold that close
 * forever. The signal also starts a timer that, if the process is still there at the deadline, says
 * so in one line and exits with status 1. The timer does not keep the process alive: a close that
 * finishes in time exits as before.
 */
@Injectable()
export class ShutdownDeadline implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('Shutdown');

  private readonly arm = (signal: NodeJS.Signals): void => {
    setTimeout(() => {
      // What still holds the process (sockets, timers), for whoever reads why it did not close.
      const open = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap');
      this.log.error(
        { open: [...new Set(open)].map((r) => `${r}×${open.filter((x) => x === r).length}`).join(', ') },
        `shutdown did not finish within ${SHUTDOWN_DEADLINE_MS / 1000} s of ${signal}; exiting`,
      );
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
  };

  onApplicationBootstrap(): void {
    for (const signal of SIGNALS) process.once(signal, this.arm);
  }

  onApplicationShutdown(): void {
    for (const signal of SIGNALS) process.off(signal, this.arm);
  }
}

@Global()
@Module({ providers: [ShutdownDeadline] })
export class ShutdownDeadlineModule {}

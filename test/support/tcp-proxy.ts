import { createServer, type Server, type Socket, connect } from 'node:net';

/** One proxied connection: its first bytes from the client (a PostgreSQL startup message names the application). */
interface Link {
  readonly client: Socket;
  readonly upstream: Socket;
  startup: Buffer | null;
  held: boolean;
}

/**
 * A TCP proxy on 127.0.0.1 in front of a server (PostgreSQL, Redis), for the outage tests: `stop()`
 * cuts every connection and refuses new ones, as a server that went away; `start()` takes them on the
 * same port again. `hold()` stalls what the server sends on chosen connections (a LISTEN connection
 * whose notifications are late) until `release()`.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly links = new Set<Link>();
  private holding: ((startup: Buffer) => boolean) | null = null;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<this> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      const link: Link = { client, upstream, startup: null, held: false };
      this.links.add(link);
      client.once('data', (chunk: Buffer) => {
        link.startup = chunk;
        if (this.holding?.(chunk)) this.stall(link);
      });
      client.on('close', () => this.links.delete(link));
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.sockets.add(a);
        a.on('error', () => b.destroy());
        a.on('close', () => {
          this.sockets.delete(a);
          b.destroy();
        });
        a.pipe(b);
      }
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * Until `release()`, what the server sends on the connections whose first client bytes `match`
   * (open ones and new ones) waits in the proxy, undelivered and unlost. Answers how many open ones matched.
   */
  hold(match: (startup: Buffer) => boolean): number {
    this.holding = match;
    let held = 0;
    for (const link of this.links)
      if (link.startup && match(link.startup)) {
        this.stall(link);
        held++;
      }
    return held;
  }

  /** Delivers what `hold()` kept back, and forwards as before. */
  release(): void {
    this.holding = null;
    for (const link of this.links)
      if (link.held) {
        link.held = false;
        link.upstream.pipe(link.client);
      }
  }

  private stall(link: Link): void {
    if (link.held) return;
    link.held = true;
    link.upstream.unpipe(link.client);
    link.upstream.pause();
  }

  /** `url` with its host and port replaced by this proxy's. */
  urlFor(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }
}

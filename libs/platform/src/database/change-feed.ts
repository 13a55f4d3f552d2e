import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import pg from 'pg';
import { DATABASE_ENDPOINT, type DatabaseEndpoint } from './database-endpoint.js';
import { isDependencyError } from '../health/dependency-errors.js';

/** The channel the `uvol_notify_change` trigger sends on (migration ChangeNotifications). */
export const CHANGES_CHANNEL = 'uvol_changes';

/**
 * A change to a table: from a notification, the row's key (the column the table's trigger sends;
 * null: any or every row); from this process's own writes, the row's columns as written (for an
 * update or delete, its where clause). Table '*': everything may have changed.
 */
export interface Change {
  readonly table: string;
  readonly key?: string | null;
  readonly row?: Readonly<Record<string, unknown>>;
}
export type ChangeListener = (change: Change) => void;

const RECONNECT_MS = 1_000;
/** A LISTEN connection that died without a word (a dropped NAT entry, a failover) is found by asking. */
const HEARTBEAT_MS = 15_000;
const HEARTBEAT_TIMEOUT_MS = 5_000;

/**
 * Row changes of the cached read tables, so that caches can evict. Two sources:
 * - Postgres notifications: triggers on those tables send `<table>:<key>` when the writing
 *   transaction commits; one dedicated connection per process LISTENs (any writer: other API
 *   processes, the worker, the CLI, SQL by hand);
 * - this process's own writes (`changed`), which the event store reports as soon as they commit,
 *   so a client reads its own write at once rather than after the notification's trip.
 *
 * While the listening connection is down, `live` is false and caches do not serve; every
 * listener hears "everything changed" when it drops and again when it is back, since
 * notifications sent in between are lost. A heartbeat query finds a connection that died
 * silently; ReadCache's maximum age bounds what a dead connection could still hide. Embedded (PGlite: one process), there is no listener
 * and caches stay off.
 */
@Injectable()
export class ChangeFeed implements OnModuleInit, OnModuleDestroy {
  private readonly log = new Logger('ChangeFeed');
  private readonly listeners = new Set<ChangeListener>();
  private client: pg.Client | null = null;
  private closed = false;
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private isLive = false;

  constructor(@Inject(DATABASE_ENDPOINT) private readonly endpoint: DatabaseEndpoint) {}

  get live(): boolean {
    return this.isLive;
  }

  async onModuleInit(): Promise<void> {
    if (this.endpoint.embedded) return;
    await this.connect().catch((err) => this.retry(err));
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.drop();
    await client?.end().catch(() => undefined);
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A row this process has just committed (the event store reports its projection writes). */
  changed(change: Change): void {
    for (const listener of this.listeners) listener(change);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.endpoint.url,
      application_name: 'uvol change feed',
      keepAlive: true,
      connectionTimeoutMillis: HEARTBEAT_TIMEOUT_MS,
      query_timeout: HEARTBEAT_TIMEOUT_MS,
    });
    client.on('notification', (n) => {
      if (n.channel !== CHANGES_CHANNEL || !n.payload) return;
      const at = n.payload.lastIndexOf(':');
      const key = n.payload.slice(at + 1);
      this.changed({ table: n.payload.slice(0, at), key: key === '*' ? null : key });
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    await client.connect();
    try {
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    // Whatever was cached before (or while away) may have missed a change: start clean.
    this.everything();
    this.isLive = true;
    this.heartbeat = setInterval(() => {
      client.query('SELECT 1').catch((err: Error) => this.lost(client, err));
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private lost(client: pg.Client, err: Error): void {
    if (this.client !== client) return;
    this.drop();
    client.end().catch(() => undefined);
    this.retry(err);
  }

  private drop(): void {
    this.isLive = false;
    this.client = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.everything();
  }

  private retry(err: unknown): void {
    if (this.closed) return;
    // A database outage is the dependency monitor's to log, once lost and once back; other failures are said each time.
    if (!isDependencyError(err))
      this.log.warn(
        `listening for changes failed (${err instanceof Error ? err.message : String(err)}); caches are off until it reconnects`,
      );
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect().catch((e) => this.retry(e));
    }, RECONNECT_MS);
    this.timer.unref();
  }

  private everything(): void {
    for (const listener of this.listeners) listener({ table: '*', key: null });
  }
}

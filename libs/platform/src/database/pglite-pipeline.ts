/**
 * pglite-socket 0.2.17 queues each wire-protocol message of each connection separately and only
 * keeps a connection's messages together inside a transaction. Outside one, an extended-protocol
 * query (Parse, Bind, Describe, Execute, …, Sync) of one connection can be cut by another's, and
 * PGlite, having a single session, then fails with `portal "" does not exist` or `unnamed prepared
 * statement does not exist`. This makes its queue finish one connection's pipeline (up to Sync)
 * before it serves another, as a real server's separate sessions would. Checked by
 * embedded-postgres.int-spec.ts; drop it once pglite-socket groups messages itself.
 *
 * The single session also hears every notification, and PGlite writes it into the output of the
 * statement that committed it: to the notifying connection, never to the one that sent LISTEN.
 * BullMQ's workers wait for `pg_notify('bullmq_jobs', …)` on a LISTEN connection and otherwise poll
 * every 5 s (its drainDelay), so every job waited up to 5 s. The queue below therefore copies each
 * NotificationResponse to the other connections that sent LISTEN, as a server would deliver it.
 */

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  timestamp: number;
  resolve(bytes: number): void;
  reject(err: unknown): void;
  onData(data: Uint8Array): void;
}

interface QueueInternals {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  db: {
    isInTransaction(): boolean;
    runExclusive<T>(fn: () => Promise<T>): Promise<T>;
    execProtocolRawStream(message: Uint8Array, options: { onRawData(data: Uint8Array): void }): Promise<unknown>;
  };
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
}

interface HandlerInternals {
  readonly handlerId: number;
  readonly socket: { readonly writable: boolean; write(data: Uint8Array): boolean } | null;
}

const NOTIFICATION = 0x41; // 'A', NotificationResponse
const QUERY = 0x51; // 'Q', simple Query: how LISTEN is sent

/**
 * Walks one statement's output message by message (a message may straddle chunks) and hands over
 * each NotificationResponse whole. Only headers are read; other messages are skipped.
 */
export class NotificationTap {
  private header: Buffer | null = null;
  private left = 0;
  private parts: Buffer[] | null = null;

  constructor(private readonly found: (message: Buffer) => void) {}

  push(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.left > 0) {
        const n = Math.min(this.left, chunk.length - i);
        this.parts?.push(Buffer.from(chunk.subarray(i, i + n))); // a copy: PGlite reuses its buffer
        this.left -= n;
        i += n;
        if (this.left === 0) this.end();
        continue;
      }
      let type: number;
      let length: number;
      if (!this.header && chunk.length - i >= 5) {
        type = chunk[i]!;
        length = ((chunk[i + 1]! << 24) | (chunk[i + 2]! << 16) | (chunk[i + 3]! << 8) | chunk[i + 4]!) >>> 0;
        if (type === NOTIFICATION) this.parts = [Buffer.from(chunk.subarray(i, i + 5))];
        i += 5;
      } else {
        const take = Math.min(5 - (this.header?.length ?? 0), chunk.length - i);
        this.header = Buffer.concat([this.header ?? Buffer.alloc(0), chunk.subarray(i, i + take)]);
        i += take;
        if (this.header.length < 5) return;
        type = this.header[0]!;
        length = this.header.readUInt32BE(1);
        if (type === NOTIFICATION) this.parts = [this.header];
        this.header = null;
      }
      this.left = length - 4;
      if (this.left === 0) this.end();
    }
  }

  private end(): void {
    if (this.parts) this.found(Buffer.concat(this.parts));
    this.parts = null;
  }
}

/** Message types that end a pipeline: Sync, simple Query, Terminate; 0 is a start-up packet. */
const ENDS_PIPELINE = new Set(['S', 'Q', 'X', '\u0000']);

export function groupPipelines(server: object): void {
  const q = (server as { queryQueue?: QueueInternals }).queryQueue;
  const handlers = (server as { handlers?: Set<HandlerInternals> }).handlers;
  if (!q || typeof q.processQueue !== 'function' || !Array.isArray(q.queue) || !(handlers instanceof Set)) {
    throw new Error('pglite-socket internals changed: review libs/platform/src/database/pglite-pipeline.ts');
  }
  let midPipeline = false;
  /** Connections that have sent LISTEN: they get every notification the session hears. */
  const listening = new Set<number>();
  const deliver = (from: number) => (message: Buffer) => {
    for (const h of handlers) {
      if (h.handlerId !== from && listening.has(h.handlerId) && h.socket?.writable) h.socket.write(message);
    }
  };

  const next = (): QueuedMessage | undefined => {
    if ((midPipeline || q.db.isInTransaction()) && q.lastHandlerId !== null) {
      const i = q.queue.findIndex((m) => m.handlerId === q.lastHandlerId);
      return i === -1 ? undefined : q.queue.splice(i, 1)[0];
    }
    return q.queue.shift();
  };

  q.processQueue = async function processQueue(): Promise<void> {
    if (q.processing || q.queue.length === 0) return;
    q.processing = true;
    try {
      for (let item = next(); item; item = next()) {
        let bytes = 0;
        if (
          item.message[0] === QUERY &&
          /\bLISTEN\b/i.test(
            Buffer.from(item.message.buffer, item.message.byteOffset, item.message.length).toString('utf8', 5),
          )
        ) {
          listening.add(item.handlerId);
        }
        const tap = listening.size > 0 ? new NotificationTap(deliver(item.handlerId)) : null;
        try {
          await q.db.runExclusive(() =>
            q.db.execProtocolRawStream(item!.message, {
              onRawData: (d) => {
                bytes += d.length;
                tap?.push(d);
                item!.onData(d);
              },
            }),
          );
        } catch (err) {
          midPipeline = false;
          item.reject(err);
          continue;
        }
        q.lastHandlerId = item.handlerId;
        midPipeline = !ENDS_PIPELINE.has(String.fromCharCode(item.message[0] ?? 0));
        item.resolve(bytes);
      }
    } finally {
      q.processing = false;
    }
  };

  // A connection that drops mid-pipeline must not hold the others up.
  const clear = q.clearQueueForHandler.bind(q);
  q.clearQueueForHandler = (handlerId: number) => {
    clear(handlerId);
    listening.delete(handlerId);
    if (q.lastHandlerId === handlerId) midPipeline = false;
    void q.processQueue();
  };
}

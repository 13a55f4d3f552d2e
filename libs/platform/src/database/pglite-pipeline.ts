/**
 * pglite-socket 0.2.17 queues each wire-protocol message of each connection separately and only
 * keeps a connection's messages together inside a transaction. Outside one, an extended-protocol
 * query (Parse, Bind, Describe, Execute, …, Sync) of one connection can be cut by another's, and
 * PGlite, having a single session, then fails with `portal "" does not exist` or `unnamed prepared
 * statement does not exist`. This makes its queue finish one connection's pipeline (up to Sync)
 * before it serves another, as a real server's separate sessions would. Checked by
 * embedded-postgres.int-spec.ts; drop it once pglite-socket groups messages itself.
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

/** Message types that end a pipeline: Sync, simple Query, Terminate; 0 is a start-up packet. */
const ENDS_PIPELINE = new Set(['S', 'Q', 'X', '\u0000']);

export function groupPipelines(server: object): void {
  const q = (server as { queryQueue?: QueueInternals }).queryQueue;
  if (!q || typeof q.processQueue !== 'function' || !Array.isArray(q.queue)) {
    throw new Error('pglite-socket internals changed: review libs/platform/src/database/pglite-pipeline.ts');
  }
  let midPipeline = false;

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
        try {
          await q.db.runExclusive(() =>
            q.db.execProtocolRawStream(item!.message, { onRawData: (d) => ((bytes += d.length), item!.onData(d)) }),
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
    if (q.lastHandlerId === handlerId) midPipeline = false;
    void q.processQueue();
  };
}

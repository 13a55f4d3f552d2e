import type { Change, ChangeFeed } from './change-feed.js';

export interface Watch {
  readonly table: string;
  /**
   * When the cache's keys are this table's keys: the column (the one the table's trigger sends).
   * A change then evicts one entry; without it, any change to the table empties the cache.
   */
  readonly key?: string;
}

/** The backstop: an entry is read again after this long even if no change was heard. */
const MAX_AGE_MS = 60_000;

/**
 * A process-local cache of rows read from watched tables, emptied by the ChangeFeed. It serves only
 * while the feed is live, and an entry for at most a minute. A load that overlaps any change to its
 * tables is returned but not kept, so a value read before a commit cannot outlive that commit's
 * notification. Values are frozen: they are shared by every caller.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  private readonly watches: ReadonlyMap<string, Watch>;
  private generation = 0;

  constructor(
    private readonly feed: ChangeFeed,
    watches: readonly Watch[],
    private readonly max = 10_000,
    private readonly maxAgeMs = MAX_AGE_MS,
  ) {
    this.watches = new Map(watches.map((w) => [w.table, w]));
    feed.subscribe((change) => this.evict(change));
  }

  /** The cached value, or `load`'s, kept when `keep` says so (e.g. not a miss). */
  async get(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    if (!this.feed.live) return load();
    const hit = this.entries.get(key);
    if (hit && hit.until > Date.now()) return hit.value;
    this.entries.delete(key);
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation && this.feed.live && keep(value)) {
      if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { value: Object.freeze(value), until: Date.now() + this.maxAgeMs });
    }
    return value;
  }

  private evict({ table, key, row }: Change): void {
    const watch = this.watches.get(table);
    if (table !== '*' && !watch) return;
    this.generation++;
    const keys = watch?.key === undefined ? null : row ? row[watch.key] : key;
    if (keys === null || keys === undefined) this.entries.clear();
    else for (const k of Array.isArray(keys) ? keys : [keys]) this.entries.delete(String(k));
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { FileRecords } from '#app/files';
import type { Caller } from '#app/identity';
import {
  APP_CONFIG,
  type AppConfig,
  ChangeFeed,
  NotFoundError,
  PreparedStatements,
  ReadCache,
  tenantScope,
  tenantSql,
} from '#app/platform';
import { FIELDS, SECRETS } from './fields.js';

type Stored = Map<string, unknown>;

/** An Image record (docs/http-conventions.md#files-and-images). */
export interface ImageView {
  id: number;
  original_name: string;
  file_size: number;
  mime: string;
  description: string;
  thumbnails: Record<string, string>;
}

/** Builds the basic and detailed views from the setting rows, defaults filled in. */
@Injectable()
export class SettingsViews {
  /** For other contexts' rules, read on every write they check (an expense's dates, a claim's approval). */
  private readonly cached: ReadCache<Stored>;

  constructor(
    private readonly db: PreparedStatements,
    private readonly files: FileRecords,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    feed: ChangeFeed,
  ) {
    this.cached = new ReadCache(feed, [{ table: 'organisation_settings', key: 'organisation_id' }]);
  }

  async stored(organisationId: number): Promise<Stored> {
    const q = tenantSql({ organisationId })`SELECT name, value FROM organisation_settings WHERE ${tenantScope()}`;
    const rows = await this.db.query<{ name: string; value: unknown }>(q.text, q.values);
    if (rows.length === 0) throw new NotFoundError('Organisation');
    return new Map(rows.map((r) => [r.name, r.value]));
  }

  /**
   * Named settings of an organisation, defaults filled in (for other contexts' rules). `fresh`
   * reads past the cache: a worker acting once on a change it has just been told of must not see
   * the value before it (another process's cache hears of the change a moment later).
   */
  async values(
    organisationId: number,
    names: readonly string[],
    { fresh = false }: { fresh?: boolean } = {},
  ): Promise<Record<string, unknown>> {
    const load = () => this.stored(organisationId);
    const stored = fresh ? await load() : await this.cached.get(String(organisationId), load);
    return Object.fromEntries(names.map((name) => [name, this.value(stored, name)]));
  }

  async basic(caller: Caller): Promise<Record<string, unknown>> {
    const stored = await this.stored(caller.organisationId);
    return Object.fromEntries(
      Object.entries(FIELDS)
        .filter(([, f]) => f.basic)
        .map(([name]) => [name, this.value(stored, name)]),
    );
  }

  /** The basic view plus every field the caller's permissions reach; secrets only as `*_set` flags. */
  async detailed(caller: Caller): Promise<Record<string, unknown>> {
    const stored = await this.stored(caller.organisationId);
    const view: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(FIELDS)) {
      if (name in SECRETS) continue;
      if (!readableBy(caller, name)) continue;
      view[name] = field.kind.type === 'image' ? await this.image(caller, stored.get(name)) : this.value(stored, name);
    }
    for (const [secret, flag] of Object.entries(SECRETS)) {
      if (caller.permissions.has(FIELDS[secret]!.access)) view[flag] = stored.get(secret) ? '1' : '0';
    }
    return view;
  }

  private value(stored: Stored, name: string): unknown {
    const { publicUrl } = this.config.http;
    if (name === 'web_url') return publicUrl;
    if (name === 'api_url') return `${publicUrl}/api`;
    if (name === 'forum_url') return stored.get(name) ?? '';
    return stored.has(name) ? stored.get(name) : (FIELDS[name]!.default ?? null);
  }

  /** A read-only `*_set` flag is readable by whoever may write its secret. */
  private async image(caller: Caller, id: unknown): Promise<ImageView | null> {
    if (typeof id !== 'number') return null;
    const file = await this.files.find(caller, id);
    if (!file) return null;
    const { signed_url: _url, ...image } = this.files.view(file);
    return image as ImageView;
  }
}

/**
 * Whether the caller reads field `name` in the detailed view (and so in the settings history): a
 * basic field, or one of a permission they hold; a read-only `*_set` flag goes with its secret's
 * permission, another read-only field with manage-organisation.
 */
export function readableBy(caller: Pick<Caller, 'permissions'>, name: string): boolean {
  const field = FIELDS[name];
  if (!field) return false;
  if (field.basic) return true;
  if (field.access !== 'read-only') return caller.permissions.has(field.access);
  const secret = Object.entries(SECRETS).find(([, flag]) => flag === name)?.[0];
  return caller.permissions.has(secret ? FIELDS[secret]!.access : 'manage-organisation');
}

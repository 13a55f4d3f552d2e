import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig, SecretBox } from '#app/platform';
import { personalData, type PersonalFields } from './registry.js';

/** Runs one statement on whatever connection the read or write uses. */
export type KeyQuery = (text: string, params: unknown[]) => Promise<any[]>;

/** The sealed value of a personal field, in the log: `{ "$sealed": "<owner id>.<iv>.<tag>.<body>" }`. */
const SEALED = '$sealed';

interface SealedValue {
  readonly [SEALED]: string;
}

const isSealed = (v: unknown): v is SealedValue =>
  typeof v === 'object' && v !== null && typeof (v as Record<string, unknown>)[SEALED] === 'string';

/** The keys of the users named, from their rows: a user with no row, or a destroyed key, is absent. */
type Keys = Map<number, Buffer>;

const CACHE_LIMIT = 50_000;

/**
 * Per-user data keys (AES-256-GCM), kept in `personal_data_keys` outside the log and themselves
 * sealed with SECRETS_KEY (docs/privacy.md, "Sealed fields in the log"). The store seals the
 * registered personal fields of an event with its owner's key on append and opens them on every
 * read; once `destroy` has run, every read gives the registry's placeholders. The row is the
 * truth: every read that meets a sealed field reads its owners' rows (one query), and only the
 * unwrapping of a key (by user and sealed key) is cached, so a destroyed key never opens again in
 * any process.
 */
@Injectable()
export class PersonalDataKeys {
  private readonly box: SecretBox;
  private readonly unwrapped = new Map<string, Buffer>();

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'secretsKey'>) {
    this.box = new SecretBox(config);
  }

  /**
   * Destroys the keys of `userIds` in the caller's transaction (the anonymise write). A user with
   * no key yet gets a destroyed row, so nothing appended for them later is sealed with a fresh key:
   * their personal fields are written as the placeholders.
   */
  async destroy(userIds: readonly number[], manager: EntityManager): Promise<void> {
    if (userIds.length === 0) return;
    await manager.query(
      `INSERT INTO personal_data_keys (user_id, sealed_key, destroyed_at)
       SELECT u, NULL, now() FROM unnest($1::bigint[]) AS u
       ON CONFLICT (user_id) DO UPDATE SET sealed_key = NULL, destroyed_at = coalesce(personal_data_keys.destroyed_at, now())`,
      [[...new Set(userIds)]],
    );
  }

  /**
   * The data of `events` as the log stores it: registered personal fields sealed with their
   * owner's key (a destroyed key: the placeholder). Returns the same object where an event has
   * nothing to seal. Keys missing are created (INSERT … ON CONFLICT DO NOTHING, then read back, so
   * concurrent first appends for one user share the one key that won) when `create`; otherwise
   * null is returned and the caller takes the path that can create them in its transaction.
   */
  async seal(
    events: readonly { readonly type: string; readonly data: unknown; readonly owner?: number }[],
    query: KeyQuery,
    create: boolean,
  ): Promise<unknown[] | null> {
    let owners: Set<number> | undefined;
    const specs: (PersonalFields | undefined)[] = [];
    for (const e of events) {
      const spec = personalData.fieldsOf(e.type);
      specs.push(spec && hasValues(spec, e.data) ? spec : undefined);
      if (!specs[specs.length - 1]) continue;
      const owner = e.owner ?? spec!.owner(e.data);
      if (owner === null || owner === undefined || !Number.isSafeInteger(owner))
        throw new Error(`${e.type}: personal data without an owner cannot be appended (its owner is ${owner})`);
      (owners ??= new Set()).add(owner);
    }
    if (!owners) return events.map((e) => e.data);
    const ids = [...owners];
    let rows = await this.rows(ids, query);
    const missing = ids.filter((id) => !rows.has(id));
    if (missing.length > 0) {
      if (!create) return null;
      await query(
        `INSERT INTO personal_data_keys (user_id, sealed_key)
         SELECT * FROM unnest($1::bigint[], $2::text[]) ON CONFLICT (user_id) DO NOTHING`,
        [missing, missing.map(() => this.box.seal(randomBytes(32).toString('base64')))],
      );
      rows = await this.rows(ids, query);
    }
    const keys = this.keysOf(rows);
    return events.map((e, i) => {
      const spec = specs[i];
      if (!spec) return e.data;
      const owner = e.owner ?? spec.owner(e.data)!;
      const key = keys.get(owner);
      const data = structuredClone(e.data) as Record<string, unknown>;
      spec.paths.forEach((path, f) => {
        const value = get(data, path);
        if (value === null || value === undefined || isSealed(value)) return;
        set(
          data,
          path,
          key
            ? { [SEALED]: `${owner}.${encrypt(key, JSON.stringify(value))}` }
            : placeholderOf(spec.placeholders[f], e.data),
        );
      });
      return data;
    });
  }

  /**
   * Opens, in place, the sealed fields of `rows` (each `{ type, data }` as read from the log): one
   * query for the keys of every owner met; a destroyed key gives the field's placeholder. Rows
   * without sealed fields cost a map lookup.
   */
  async open<R extends { readonly type: string; data: unknown }>(rows: R[], query: KeyQuery): Promise<R[]> {
    let found:
      { data: Record<string, unknown>; path: readonly string[]; placeholder: unknown; sealed: string }[] | undefined;
    let owners: Set<number> | undefined;
    for (const row of rows) {
      const spec = personalData.fieldsOf(row.type);
      if (!spec) continue;
      for (let f = 0; f < spec.paths.length; f++) {
        const value = get(row.data, spec.paths[f]!);
        if (!isSealed(value)) continue;
        const sealed = value[SEALED];
        (owners ??= new Set()).add(Number(sealed.slice(0, sealed.indexOf('.'))));
        (found ??= []).push({
          data: row.data as Record<string, unknown>,
          path: spec.paths[f]!,
          placeholder: placeholderOf(spec.placeholders[f], row.data),
          sealed,
        });
      }
    }
    if (!found) return rows;
    const keys = this.keysOf(await this.rows([...owners!], query));
    for (const { data, path, placeholder, sealed } of found) {
      const dot = sealed.indexOf('.');
      const key = keys.get(Number(sealed.slice(0, dot)));
      set(data, path, key ? JSON.parse(decrypt(key, sealed.slice(dot + 1))) : placeholder);
    }
    return rows;
  }

  private async rows(ids: readonly number[], query: KeyQuery): Promise<Map<number, string | null>> {
    const rows: { user_id: string; sealed_key: string | null }[] = await query(
      `SELECT user_id, sealed_key FROM personal_data_keys WHERE user_id = ANY($1::bigint[])`,
      [ids],
    );
    return new Map(rows.map((r) => [Number(r.user_id), r.sealed_key]));
  }

  private keysOf(rows: Map<number, string | null>): Keys {
    const keys: Keys = new Map();
    for (const [id, sealedKey] of rows) {
      if (sealedKey === null) continue;
      const cacheKey = `${id}:${sealedKey}`;
      let key = this.unwrapped.get(cacheKey);
      if (!key) {
        if (this.unwrapped.size >= CACHE_LIMIT) this.unwrapped.clear();
        key = Buffer.from(this.box.open(sealedKey), 'base64');
        this.unwrapped.set(cacheKey, key);
      }
      keys.set(id, key);
    }
    return keys;
  }
}

const placeholderOf = (placeholder: unknown, data: unknown): unknown =>
  typeof placeholder === 'function' ? (placeholder as (d: unknown) => unknown)(data) : placeholder;

function hasValues(spec: PersonalFields, data: unknown): boolean {
  for (const path of spec.paths) {
    const v = get(data, path);
    if (v !== null && v !== undefined && !isSealed(v)) return true;
  }
  return false;
}

function get(data: unknown, path: readonly string[]): unknown {
  let v = data;
  for (const p of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[p];
  }
  return v;
}

function set(data: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let v = data;
  for (let i = 0; i < path.length - 1; i++) v = v[path[i]!] as Record<string, unknown>;
  v[path[path.length - 1]!] = value;
}

function encrypt(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
}

function decrypt(key: Buffer, sealed: string): string {
  const [iv, tag, body] = sealed.split('.');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv!, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag!, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body!, 'base64url')), decipher.final()]).toString('utf8');
}

export { isSealed };

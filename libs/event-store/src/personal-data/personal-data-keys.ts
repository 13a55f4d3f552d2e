import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig, SecretBox } from '#app/platform';
import { personalData, type PersonalFields } from './registry.js';

/** Runs one statement on whatever connection the read or write uses. */
export type KeyQuery = (text: string, params: unknown[]) => Promise<unknown[]>;

/**
 * The sealed value of a personal field, in the log: `{ "$sealed": "<owner id>.<sealed>" }`, the
 * sealed part the base64url of the 12-byte IV, the 16-byte GCM tag and the ciphertext of the
 * value's JSON. An object, so no clear value (a string, null) can be taken for one.
 */
const SEALED = '$sealed';

interface SealedValue {
  readonly [SEALED]: string;
}

const isSealed = (v: unknown): v is SealedValue =>
  typeof v === 'object' && v !== null && typeof (v as Record<string, unknown>)[SEALED] === 'string';

/** The keys of the users named, from their rows: a user with no row, or a destroyed key, is absent. */
type Keys = Map<number, KeyObject>;

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
  // A KeyObject, not the bytes: a cipher made from one costs a quarter (bench/README.md, replay-sealed).
  private readonly unwrapped = new Map<string, KeyObject>();

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'secretsKey'>) {
    this.box = new SecretBox(config);
  }

  /**
   * Destroys the keys of `userIds` in the caller's transaction (the anonymise write). A user with
   * no key yet gets a destroyed row, so nothing appended for them later is sealed with a fresh key:
   * their personal fields are written as the placeholders.
   */
  async destroy(
    userIds: readonly number[],
    db: { query(text: string, params?: unknown[]): Promise<unknown> } | EntityManager,
  ): Promise<void> {
    if (userIds.length === 0) return;
    await db.query(
      `INSERT INTO personal_data_keys (user_id, sealed_key, destroyed_at)
       SELECT u, NULL, now() FROM unnest($1::bigint[]) AS u
       ON CONFLICT (user_id) DO UPDATE SET sealed_key = NULL, destroyed_at = coalesce(personal_data_keys.destroyed_at, now())`,
      [[...new Set(userIds)]],
    );
  }

  /**
   * The data of `events` as the log stores it: registered personal fields sealed with their
   * owner's key (a destroyed key: the placeholder). Returns the same object where an event has
   * nothing to seal. `inTransaction` (the append's own transaction): keys missing are created
   * (INSERT … ON CONFLICT DO NOTHING, then read back, so concurrent first appends for one user share
   * the one key that won), and the key rows are read FOR SHARE, so an anonymisation destroying one
   * waits for this append (and its projections) to commit. Otherwise (the one-statement append) null
   * is returned when a key is missing or destroyed, and the caller takes the transactional path: there
   * the projections see the events as stored and opened, placeholders included, never data the user's
   * erasure forbids.
   */
  async seal(
    events: readonly { readonly type: string; readonly data: unknown; readonly owner?: number }[],
    query: KeyQuery,
    inTransaction: boolean,
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
    let rows = await this.rows(ids, query, inTransaction);
    const missing = ids.filter((id) => !rows.has(id));
    if (!inTransaction && (missing.length > 0 || [...rows.values()].includes(null))) return null;
    if (missing.length > 0) {
      await query(
        `INSERT INTO personal_data_keys (user_id, sealed_key)
         SELECT * FROM unnest($1::bigint[], $2::text[]) ON CONFLICT (user_id) DO NOTHING`,
        [missing, missing.map(() => this.box.seal(randomBytes(32).toString('base64')))],
      );
      rows = await this.rows(ids, query, true);
    }
    const keys = this.keysOf(rows);
    return events.map((e, i) => {
      const spec = specs[i];
      if (!spec) return e.data;
      const owner = e.owner ?? spec.owner(e.data)!;
      const key = keys.get(owner);
      const data = copyAlong(e.data as Record<string, unknown>, spec.paths);
      spec.paths.forEach((path, f) => {
        const value = get(data, path);
        if (value === null || value === undefined || isSealed(value)) return;
        set(
          data,
          path,
          key ? { [SEALED]: `${owner}.${encrypt(key, toPlain(value))}` } : placeholderOf(spec.placeholders[f], e.data),
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
    // Two passes without allocating per field: the owners met, then (keys read) each field opened.
    let owners: Set<number> | undefined;
    for (const row of rows) {
      const spec = personalData.fieldsOf(row.type);
      if (!spec) continue;
      for (const path of spec.paths) {
        const value = get(row.data, path);
        if (isSealed(value)) (owners ??= new Set()).add(ownerOf(value[SEALED]));
      }
    }
    if (!owners) return rows;
    const keys = this.keysOf(await this.rows([...owners], query));
    for (const row of rows) {
      const spec = personalData.fieldsOf(row.type);
      if (!spec) continue;
      for (let f = 0; f < spec.paths.length; f++) {
        const path = spec.paths[f]!;
        const value = get(row.data, path);
        if (!isSealed(value)) continue;
        const sealed = value[SEALED];
        const dot = sealed.indexOf('.');
        const key = keys.get(Number(sealed.slice(0, dot)));
        set(
          row.data as Record<string, unknown>,
          path,
          key ? fromPlain(decrypt(key, sealed.slice(dot + 1))) : placeholderOf(spec.placeholders[f], row.data),
        );
      }
    }
    return rows;
  }

  private async rows(ids: readonly number[], query: KeyQuery, share = false): Promise<Map<number, string | null>> {
    const rows = (await query(
      `SELECT user_id, sealed_key FROM personal_data_keys WHERE user_id = ANY($1::bigint[])${share ? ' FOR SHARE' : ''}`,
      [ids],
    )) as { user_id: string; sealed_key: string | null }[];
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
        key = createSecretKey(Buffer.from(this.box.open(sealedKey), 'base64'));
        this.unwrapped.set(cacheKey, key);
      }
      keys.set(id, key);
    }
    return keys;
  }
}

const ownerOf = (sealed: string): number => Number(sealed.slice(0, sealed.indexOf('.')));

/** What is encrypted: a string as itself after `s`, anything else as its JSON after `j` (no JSON.parse per string). */
const toPlain = (value: unknown): string => (typeof value === 'string' ? `s${value}` : `j${JSON.stringify(value)}`);
const fromPlain = (plain: string): unknown => (plain[0] === 's' ? plain.slice(1) : JSON.parse(plain.slice(1)));

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

/** `data` with every object along `paths` copied, so setting a sealed value leaves the caller's event alone. */
function copyAlong(data: Record<string, unknown>, paths: readonly (readonly string[])[]): Record<string, unknown> {
  const copy = { ...data };
  for (const path of paths) {
    let v = copy;
    for (let i = 0; i < path.length - 1; i++) {
      const next = v[path[i]!];
      if (typeof next !== 'object' || next === null) break;
      v = v[path[i]!] = { ...(next as Record<string, unknown>) };
    }
  }
  return copy;
}

/** Random IVs drawn from a pool: one randomBytes call per 4,096 seals instead of one each. */
let ivPool = Buffer.alloc(0);
let ivAt = 0;
function freshIv(): Buffer {
  if (ivAt + 12 > ivPool.length) {
    ivPool = randomBytes(12 * 4096);
    ivAt = 0;
  }
  ivAt += 12;
  return ivPool.subarray(ivAt - 12, ivAt);
}

function encrypt(key: KeyObject, plain: string): string {
  const iv = freshIv();
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = cipher.update(plain, 'utf8');
  const tail = cipher.final();
  return Buffer.concat([iv, cipher.getAuthTag(), body, tail]).toString('base64url');
}

function decrypt(key: KeyObject, sealed: string): string {
  const bytes = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  const body = decipher.update(bytes.subarray(28));
  const tail = decipher.final();
  return (tail.length === 0 ? body : Buffer.concat([body, tail])).toString('utf8');
}

export { isSealed };

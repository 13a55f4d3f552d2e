import {
  type FieldErrors,
  ForbiddenError,
  isEmailAddress,
  isIdRef,
  isPositiveId,
  isStorableText,
  NotFoundError,
  unstorableTextMessage,
  ValidationError,
} from '#app/platform';
import { FIELDS, type Kind, SECRETS } from './fields.js';
import type { SettingsEvent, SettingValue } from './settings.events.js';

export type UpdateCheck =
  | { readonly outcome: 'invalid'; readonly errors: FieldErrors }
  | { readonly outcome: 'forbidden'; readonly fields: string[] }
  | { readonly outcome: 'ok'; readonly values: Record<string, SettingValue> };

/**
 * Judges an update body against the field table, in the order a client can act on: fields that
 * do not exist or cannot be written (422), fields the caller may not change (403, all named),
 * then the values (422, every bad one named). Pure: the caller supplies the permissions.
 */
export function checkUpdate(body: unknown, permissions: ReadonlySet<string>): UpdateCheck {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return { outcome: 'invalid', errors: { body: ['The body must be a JSON object.'] } };
  const entries = Object.entries(body as Record<string, unknown>);
  const structural: FieldErrors = {};
  for (const [name] of entries) {
    const field = Object.hasOwn(FIELDS, name) ? FIELDS[name] : undefined;
    if (!field) structural[name] = [`The ${name} field does not exist.`];
    else if (field.access === 'read-only') structural[name] = [`The ${name} field is read only.`];
  }
  if (Object.keys(structural).length) return { outcome: 'invalid', errors: structural };
  const forbidden = entries.map(([name]) => name).filter((name) => !permissions.has(FIELDS[name]!.access));
  if (forbidden.length) return { outcome: 'forbidden', fields: forbidden };
  const errors: FieldErrors = {};
  const values: Record<string, SettingValue> = {};
  for (const [name, raw] of entries) {
    const result = checkValue(FIELDS[name]!.kind, raw, name);
    if ('error' in result) errors[name] = [result.error];
    else values[name] = result.value;
  }
  return Object.keys(errors).length ? { outcome: 'invalid', errors } : { outcome: 'ok', values };
}

/** An organisation's stored settings (secrets sealed); a field not stored has its default. */
export type SettingsState = ReadonlyMap<string, unknown>;

export function evolve(state: SettingsState | null, event: SettingsEvent): SettingsState {
  return new Map([...(state ?? []), ...Object.entries(event.data.changes)]);
}

/** PUT /api/organisation: a body of fields, by a caller with these permissions. */
export interface UpdateSettings {
  readonly organisationId: number;
  readonly permissions: ReadonlySet<string>;
  readonly body: unknown;
}

/** A file named by an image field, as the caller sees it. */
export interface NamedFile {
  readonly mime: string;
  /** Whether the caller may read it: a logo is shown to every member. */
  readonly readable: boolean;
}

export interface UpdateContext {
  /** The files the body's image fields name (imagesNamed), looked up for the caller; absent: not found. */
  readonly files: ReadonlyMap<number, NamedFile>;
  /** Seals the secrets among the changes before they are recorded. */
  readonly seal: (changes: Record<string, SettingValue>) => Record<string, SettingValue>;
}

/**
 * The body judged by checkUpdate (422 for unknown or read-only fields, 403 naming every field of
 * another permission, 422 naming every bad value), then its images: each must be a file of the
 * organisation (404) that the caller may read (403) and an image (422). Only what differs from
 * the stored values is recorded; a secret given is always a change (it cannot be compared).
 */
export function decideUpdate(state: SettingsState | null, cmd: UpdateSettings, ctx: UpdateContext): SettingsEvent[] {
  const check = checkUpdate(cmd.body, cmd.permissions);
  if (check.outcome === 'forbidden') throw new ForbiddenError(`You may not change: ${check.fields.join(', ')}.`);
  if (check.outcome === 'invalid') throw new ValidationError(check.errors);
  for (const [name, value] of Object.entries(check.values)) {
    if (FIELDS[name]!.kind.type !== 'image' || value === null) continue;
    const file = ctx.files.get(value as number);
    if (!file) throw new NotFoundError('File');
    if (!file.readable) throw new ForbiddenError(`The ${name} field names a file you may not read.`);
    if (!file.mime.startsWith('image/'))
      throw new ValidationError({ [name]: [`The ${name} field must name an image, not ${file.mime}.`] });
  }
  const stored = state ?? new Map<string, unknown>();
  const current = (name: string) => (stored.has(name) ? stored.get(name) : (FIELDS[name]!.default ?? null));
  const changes = Object.fromEntries(
    Object.entries(check.values).filter(([name, value]) => name in SECRETS || current(name) !== value),
  );
  if (Object.keys(changes).length === 0) return [];
  return [
    { type: 'organisation.SettingsChanged', data: { organisationId: cmd.organisationId, changes: ctx.seal(changes) } },
  ];
}

/** The file ids the body's image fields name, for the handler to look up before deciding. */
export function imagesNamed(body: unknown): number[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  return Object.entries(body as Record<string, unknown>).flatMap(([name, raw]) => {
    const field = Object.hasOwn(FIELDS, name) ? FIELDS[name] : undefined;
    if (field?.kind.type !== 'image') return [];
    const checked = checkValue(field.kind, raw, name);
    return 'value' in checked && typeof checked.value === 'number' ? [checked.value] : [];
  });
}

export function checkValue(kind: Kind, raw: unknown, name: string): { value: SettingValue } | { error: string } {
  const isString = typeof raw === 'string';
  // The HTTP pipe refuses such text first; provisioning files come here directly.
  if (isString && !isStorableText(raw)) return { error: unstorableTextMessage(name) };
  switch (kind.type) {
    case 'text':
      return isString && raw.length <= kind.max
        ? { value: raw }
        : { error: `The ${name} field must be a string of at most ${kind.max} characters.` };
    case 'nullable-text':
      return raw === null || (isString && raw.length <= kind.max)
        ? { value: raw as string | null }
        : { error: `The ${name} field must be null or a string of at most ${kind.max} characters.` };
    case 'email':
      return isString && (raw === '' || isEmailAddress(raw))
        ? { value: raw.trim() }
        : { error: `The ${name} field must be an e-mail address (or empty).` };
    case 'url':
      return isString && (raw === '' || isHttpUrl(raw))
        ? { value: raw }
        : { error: `The ${name} field must be an http(s) URL (or empty).` };
    case 'colour':
      return isString && (raw === '' || /^#[0-9a-fA-F]{6}$/.test(raw))
        ? { value: raw.toLowerCase() }
        : { error: `The ${name} field must be a colour such as #1a2b3c (or empty).` };
    case 'switch':
      return raw === '0' || raw === '1'
        ? { value: raw }
        : { error: `The ${name} field must be the string "0" or "1".` };
    case 'digits': {
      if (kind.unset && raw === '') return { value: '' };
      const n = isString && /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
      return n >= kind.min && n <= kind.max
        ? { value: String(n) }
        : {
            error: `The ${name} field must be a whole number from ${kind.min} to ${kind.max}, as a string${kind.unset ? ' (or empty)' : ''}.`,
          };
    }
    case 'boolean':
      return typeof raw === 'boolean' ? { value: raw } : { error: `The ${name} field must be true or false.` };
    case 'secret':
      return raw === null || (isString && raw.length <= 1024)
        ? { value: raw === '' ? null : (raw as string | null) }
        : { error: `The ${name} field must be a string of at most 1024 characters, or null to clear it.` };
    case 'image':
      // null clears the image; `{ "id": null }` is not a way to say so.
      if (raw === null) return { value: null };
      if (isPositiveId(raw)) return { value: raw };
      return isIdRef(raw)
        ? { value: raw.id }
        : {
            error: `The ${name} field must be the id of an uploaded image, as n or { "id": n } (or null to clear it).`,
          };
  }
}

function isHttpUrl(s: string): boolean {
  if (s.length > 2048 || !URL.canParse(s)) return false;
  return ['http:', 'https:'].includes(new URL(s).protocol);
}

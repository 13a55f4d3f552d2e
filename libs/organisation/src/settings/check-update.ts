import type { FieldErrors } from '#app/platform';
import { FIELDS, type Kind } from './fields.js';

export type SettingValue = string | boolean | number | null;

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
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { outcome: 'invalid', errors: { body: ['The body must be a JSON object.'] } };
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

const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;

export function checkValue(kind: Kind, raw: unknown, name: string): { value: SettingValue } | { error: string } {
  const isString = typeof raw === 'string';
  switch (kind.type) {
    case 'text':
      return isString && raw.length <= kind.max ? { value: raw } : { error: `The ${name} field must be a string of at most ${kind.max} characters.` };
    case 'nullable-text':
      return raw === null || (isString && raw.length <= kind.max) ? { value: raw as string | null } : { error: `The ${name} field must be null or a string of at most ${kind.max} characters.` };
    case 'email':
      return isString && (raw === '' || (raw.length <= 254 && EMAIL.test(raw))) ? { value: raw.trim() } : { error: `The ${name} field must be an e-mail address (or empty).` };
    case 'url':
      return isString && (raw === '' || isHttpUrl(raw)) ? { value: raw } : { error: `The ${name} field must be an http(s) URL (or empty).` };
    case 'colour':
      return isString && (raw === '' || /^#[0-9a-fA-F]{6}$/.test(raw)) ? { value: raw.toLowerCase() } : { error: `The ${name} field must be a colour such as #1a2b3c (or empty).` };
    case 'switch':
      return raw === '0' || raw === '1' ? { value: raw } : { error: `The ${name} field must be the string "0" or "1".` };
    case 'digits': {
      const n = isString && /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
      return n >= kind.min && n <= kind.max ? { value: String(n) } : { error: `The ${name} field must be a whole number from ${kind.min} to ${kind.max}, as a string.` };
    }
    case 'boolean':
      return typeof raw === 'boolean' ? { value: raw } : { error: `The ${name} field must be true or false.` };
    case 'secret':
      return raw === null || (isString && raw.length <= 1024) ? { value: raw === '' ? null : (raw as string | null) } : { error: `The ${name} field must be a string of at most 1024 characters, or null to clear it.` };
    case 'image': {
      const id = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as { id?: unknown }).id : raw;
      if (id === null) return { value: null };
      return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? { value: id } : { error: `The ${name} field must be the id of an uploaded image (or null).` };
    }
  }
}

function isHttpUrl(s: string): boolean {
  if (s.length > 2048 || !URL.canParse(s)) return false;
  return ['http:', 'https:'].includes(new URL(s).protocol);
}

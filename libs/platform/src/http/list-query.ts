import { ValidationError, type FieldErrors } from '../errors/domain-error.js';
import { PER_PAGE, type PageRequest } from './pagination.js';

/** A query string as the router parsed it: a repeated parameter is an array of its values. */
export type RawQuery = Record<string, unknown>;

export interface ListQuerySpec<S extends string = string, I extends string = string> {
  /** Sort columns the list offers (`s`); the first is the default unless `defaultSort` says. */
  readonly sorts?: readonly S[];
  readonly defaultSort?: S;
  readonly defaultDirection?: 'asc' | 'desc';
  /** Relations `include` may name. */
  readonly includes?: readonly I[];
}

export interface ListQuery<S extends string = string, I extends string = string> extends PageRequest {
  readonly sort: S | undefined;
  readonly direction: 'asc' | 'desc';
  readonly include: ReadonlySet<I>;
}

/**
 * page / per_page (alias limit) / s / o / include (docs/http-conventions.md#pagination, #sorting, #includes);
 * every bad value is named in one 422.
 */
export function parseListQuery<S extends string, I extends string>(
  query: RawQuery,
  spec: ListQuerySpec<S, I> = {},
): ListQuery<S, I> {
  const errors: FieldErrors = {};
  const page = positiveInt(query, 'page', 1, undefined, errors);
  const perPageKey = query.per_page !== undefined ? 'per_page' : 'limit';
  const perPage = positiveInt(query, perPageKey, PER_PAGE.default, PER_PAGE.max, errors);
  const sort = oneOf(query, 's', spec.sorts ?? [], errors) ?? spec.defaultSort ?? spec.sorts?.[0];
  const o = oneOf(query, 'o', ['a', 'd', 'asc', 'desc'], errors);
  const direction = o ? (o.startsWith('a') ? 'asc' : 'desc') : (spec.defaultDirection ?? 'asc');
  const include = includes(query, spec.includes ?? [], errors);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { page, perPage, sort, direction, include };
}

/** `true`/`false`/`1`/`0`; absent gives undefined; anything else a 422. */
export function parseBooleanQuery(query: RawQuery, name: string): boolean | undefined {
  const value = single(query[name]);
  if (value === undefined) return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new ValidationError({ [name]: [`The ${name} field must be true, false, 1 or 0.`] });
}

/**
 * `teams=3,7`: comma-separated ids, each a positive integer (ids start at 1); absent gives
 * undefined; anything else, an empty value included, is a 422 naming the parameter. A repeated
 * parameter counts as one list (`teams=3&teams=7` is `teams=3,7`).
 */
export function parseIdList(query: RawQuery, name: string): number[] | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  const parts = String(raw)
    .split(',')
    .map((s) => s.trim());
  if (parts.some((s) => !/^\d{1,15}$/.test(s) || Number(s) < 1))
    throw new ValidationError({ [name]: [`The ${name} field must be comma-separated ids.`] });
  return parts.map(Number);
}

function single(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? String(value[value.length - 1]) : String(value);
}

function positiveInt(
  query: RawQuery,
  name: string,
  fallback: number,
  max: number | undefined,
  errors: FieldErrors,
): number {
  const raw = single(query[name]);
  if (raw === undefined) return fallback;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) errors[name] = [`The ${name} field must be a positive integer.`];
  else if (max !== undefined && n > max) errors[name] = [`The ${name} field may not be greater than ${max}.`];
  else return n;
  return fallback;
}

function oneOf<T extends string>(
  query: RawQuery,
  name: string,
  allowed: readonly T[],
  errors: FieldErrors,
): T | undefined {
  const raw = single(query[name]);
  if (raw === undefined) return undefined;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  errors[name] = [
    allowed.length
      ? `The selected ${name} is invalid; allowed: ${allowed.join(', ')}.`
      : `This list cannot be sorted by ${name}.`,
  ];
  return undefined;
}

function includes<T extends string>(query: RawQuery, allowed: readonly T[], errors: FieldErrors): Set<T> {
  const raw = Array.isArray(query.include) ? query.include.join(',') : single(query.include);
  if (raw === undefined || raw === '') return new Set();
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(allowed as readonly string[]).includes(n));
  if (unknown.length) {
    errors.include = [
      `Unknown include: ${unknown.join(', ')}.${allowed.length ? ` Allowed: ${allowed.join(', ')}.` : ''}`,
    ];
  }
  return new Set(names.filter((n): n is T => (allowed as readonly string[]).includes(n)));
}

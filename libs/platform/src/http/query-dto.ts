import { type FieldErrors, ValidationError } from '../errors/domain-error.js';
import { parseListQuery, type RawQuery } from './list-query.js';
import type { PageRequest } from './pagination.js';

/**
 * A query string's typed form: a route takes `@Query() query: SomeQuery`, where SomeQuery is a
 * class with a static `fromQuery(raw)`. The global validation pipe (validation.ts) calls it, so
 * the handler gets checked, typed values, and a bad one is a 422 before the handler runs.
 *
 * fromQuery reads with the helpers of list-query.ts (parseListQuery, parseBooleanQuery,
 * parseIdList), in the order it lists the parameters: each helper names its parameter in the
 * 422, and the first failing step answers (parseListQuery names all of page, per_page, s, o and
 * include at once). Not class-validator: it would name every bad parameter in one 422, and the
 * list query's answers must not change. Unknown parameters are ignored (a body's are refused).
 * What the OpenAPI document says of the parameters is written by the route's *.openapi.ts.
 */
export interface QueryDtoClass<T = unknown> {
  fromQuery(query: RawQuery): T;
  /** Its list parameters besides `include`: given twice, their values are joined (repeatedKeys). */
  readonly listParameters?: readonly string[];
}

/**
 * A repeated query key (`include=user&include=type`, as openapi-fetch sends an array) is never
 * cut to one value (docs/http-conventions.md#filters-and-query-parsing): a list parameter's values are joined
 * with commas (`include=user,type`); any other parameter given twice is a 422 naming it.
 */
export function repeatedKeys(query: RawQuery, lists: readonly string[]): RawQuery {
  const errors: FieldErrors = {};
  const out: RawQuery = {};
  for (const [name, value] of Object.entries(query)) {
    if (!Array.isArray(value)) out[name] = value;
    else if (name === 'include' || lists.includes(name)) out[name] = value.map(String).join(',');
    else errors[name] = [givenOnceMessage(name)];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return out;
}

export const givenOnceMessage = (name: string) => `The ${name} field may be given only once.`;

export function isQueryDtoClass(metatype: unknown): metatype is QueryDtoClass {
  return typeof metatype === 'function' && typeof (metatype as Partial<QueryDtoClass>).fromQuery === 'function';
}

/** `page` and `per_page` (alias `limit`) of a list with no sort or include: an `s` or `include` is a 422. */
export class PageQuery implements PageRequest {
  readonly page!: number;
  readonly perPage!: number;

  static fromQuery(query: RawQuery): PageQuery {
    const { page, perPage } = parseListQuery(query);
    return { page, perPage };
  }
}

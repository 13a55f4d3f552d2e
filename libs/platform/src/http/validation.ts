import { type ArgumentMetadata, ValidationPipe, type ValidationError as ClassValidatorError } from '@nestjs/common';
import { DomainError, type FieldErrors, ValidationError } from '../errors/domain-error.js';
import { notNullMessage } from '../validation/not-null.js';
import { unstorableTextIn } from '../validation/storable-text.js';
import { givenOnceMessage, isQueryDtoClass, repeatedKeys } from './query-dto.js';

export const requiredMessage = (field: string) => `The ${field} field is required.`;

/**
 * How class-validator constraints rank when one field breaks several: the one thing wrong is the
 * most basic rule it breaks. An unknown field first; then the type (a string, a number, an
 * object, …); then any other format rule (e-mail, calendar date, not empty, …: unlisted names
 * rank here); then ranges and lengths; last the nested-object check, which only repeats the type.
 * Presence is decided before ranking: a missing field is "required", a null one "must not be null".
 */
const RANK: Readonly<Record<string, number>> = {
  whitelistValidation: 0,
  isDefined: 1,
  isNotNull: 1,
  isString: 1,
  isNumber: 1,
  isInt: 1,
  isDecimal: 1,
  isBoolean: 1,
  isObject: 1,
  isArray: 1,
  isPositiveId: 1,
  isDate: 1,
  min: 3,
  max: 3,
  minLength: 3,
  maxLength: 3,
  length: 3,
  arrayMinSize: 3,
  arrayMaxSize: 3,
  arrayNotEmpty: 3,
  minDate: 3,
  maxDate: 3,
  isPositive: 3,
  isNegative: 3,
  nestedValidation: 4,
};
const FORMAT_RANK = 2;

/**
 * The one message for a field. class-validator reports every failing constraint, the ones
 * declared last first (decorators apply bottom-up), so ties in rank go to the first declared.
 */
function firstFailure(path: string, value: unknown, constraints: Record<string, string>): string {
  const failures = Object.entries(constraints).reverse();
  if (!('whitelistValidation' in constraints)) {
    if (value === undefined) return requiredMessage(path);
    if (value === null) return notNullMessage(path);
  }
  const rank = ([name]: [string, string]) => RANK[name] ?? FORMAT_RANK;
  return failures.reduce((best, f) => (rank(f) < rank(best) ? f : best))[1];
}

/**
 * Flattens class-validator's tree to `{ "type.id": ["…"] }`, one message a field: the first rule it
 * breaks (firstFailure): a missing field is named as required and a null one as such ("must not be
 * null") rather than by whichever type or length check it failed.
 */
export function fieldErrors(errors: ClassValidatorError[], prefix = ''): FieldErrors {
  const out: FieldErrors = {};
  for (const e of errors) {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    if (e.constraints && Object.keys(e.constraints).length) out[path] = [firstFailure(path, e.value, e.constraints)];
    Object.assign(out, fieldErrors(e.children ?? [], path));
  }
  return out;
}

export const BODY_REQUIRED = 'A JSON object body is required.';

/**
 * Declarative DTO validation; unknown fields are refused, every bad field named in one 422. Before
 * any DTO runs, two rules hold for every route, DTO or not:
 * - a whole-body parameter (`@Body()`) needs a body: none (or a multipart one, which reaches
 *   here as undefined) is a 400;
 * - no string of a body or query may hold text the database cannot store (NUL, an unpaired
 *   surrogate): a 422 naming each such field.
 * A query DTO (query-dto.ts) is built by its own `fromQuery`, not by class-validator, once a repeated
 * key is joined or refused (repeatedKeys); a single named parameter given twice is a 422.
 */
class ApiValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.data === undefined && (value === undefined || value === null))
      throw new DomainError('bad_request', BODY_REQUIRED);
    if (metadata.type === 'body' || metadata.type === 'query') {
      // One named parameter (`@Query('key')`) is named in the 422 as itself.
      const named = metadata.type === 'query' && metadata.data !== undefined;
      const unstorable = unstorableTextIn(named ? { [metadata.data!]: value } : value);
      if (Object.keys(unstorable).length) throw new ValidationError(unstorable);
    }
    if (metadata.type === 'query' && metadata.data !== undefined && Array.isArray(value))
      throw new ValidationError({ [metadata.data]: [givenOnceMessage(metadata.data)] });
    if (metadata.type === 'query' && isQueryDtoClass(metadata.metatype))
      return metadata.metatype.fromQuery(
        repeatedKeys((value ?? {}) as Record<string, unknown>, metadata.metatype.listParameters ?? []),
      );
    return super.transform(value, metadata);
  }
}

export function validationPipe(): ValidationPipe {
  return new ApiValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    // Every failing rule is collected and fieldErrors keeps the most basic one: stopAtFirstError would
    // keep the last declared (class-validator runs them bottom-up), a range check before the type.
    stopAtFirstError: false,
    exceptionFactory: (errors) => new ValidationError(fieldErrors(errors)),
  });
}

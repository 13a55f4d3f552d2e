import type { FieldErrors } from '../errors/domain-error.js';

/** The one error shape (docs/http-conventions.md#the-error-body). */
export interface ErrorBody {
  message: string;
  status_code: number;
  errors?: FieldErrors;
}

/** At most this many fields in `errors`, and this many messages for one field. */
export const MAX_ERROR_FIELDS = 50;
export const MAX_FIELD_MESSAGES = 5;

/**
 * The body of every error. `errors` is capped, so a body naming thousands of bad fields cannot
 * make an answer of megabytes; the message says how many fields were left out.
 */
export function errorBody(status: number, message: string, errors?: FieldErrors): ErrorBody {
  if (!errors) return { message, status_code: status };
  const fields = Object.keys(errors);
  if (!fields.length) return { message, status_code: status };
  if (fields.length <= MAX_ERROR_FIELDS && fields.every((f) => errors[f]!.length <= MAX_FIELD_MESSAGES))
    return { message, status_code: status, errors };
  const kept: FieldErrors = {};
  for (const field of fields.slice(0, MAX_ERROR_FIELDS)) kept[field] = errors[field]!.slice(0, MAX_FIELD_MESSAGES);
  const left = fields.length - MAX_ERROR_FIELDS;
  return {
    message: left > 0 ? `${message} (${left} more fields not listed)` : message,
    status_code: status,
    errors: kept,
  };
}

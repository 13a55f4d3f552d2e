import type { FieldErrors } from '../errors/domain-error.js';

/** The one error shape of api.md. */
export interface ErrorBody {
  message: string;
  status_code: number;
  errors?: FieldErrors;
}

export function errorBody(status: number, message: string, errors?: FieldErrors): ErrorBody {
  return errors && Object.keys(errors).length ? { message, status_code: status, errors } : { message, status_code: status };
}

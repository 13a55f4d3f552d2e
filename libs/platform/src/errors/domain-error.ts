/**
 * Errors the domain raises on purpose. The global filter maps `code` to the HTTP status of api.md;
 * controllers never translate errors themselves.
 */
export type DomainErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'validation'
  | 'rate_limited';

export type FieldErrors = Record<string, string[]>;

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly errors?: FieldErrors,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class NotFoundError extends DomainError {
  constructor(what = 'Resource') {
    super('not_found', `${what} not found`);
  }
}

export class ValidationError extends DomainError {
  constructor(errors: FieldErrors, message = 'The given data was invalid.') {
    super('validation', message, errors);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = 'This action is unauthorized.') {
    super('forbidden', message);
  }
}

export const STATUS_OF: Record<DomainErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  validation: 422,
  rate_limited: 429,
};

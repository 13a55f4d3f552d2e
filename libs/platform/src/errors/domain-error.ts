/**
 * Errors the domain raises on purpose. The global filter maps `code` to the HTTP status of
 * docs/http-conventions.md#status-codes; controllers never translate errors themselves.
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

/**
 * A 401 for a bearer token that was sent and is not valid (malformed, expired, wrongly signed,
 * revoked): its WWW-Authenticate says `error="invalid_token"` (RFC 6750 3.1). Every other 401 says
 * plain `Bearer` (docs/http-conventions.md#authentication).
 */
export class InvalidTokenError extends DomainError {
  readonly challenge = 'Bearer error="invalid_token"';
  constructor(message = 'Unauthenticated.') {
    super('unauthorized', message);
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

/**
 * A refusal that must still leave a trace in the log: a wrong two-factor key is counted, a reused
 * refresh token revokes its session. A decide function throws it with the events to record; the
 * command handler appends them, commits, and only then throws it (`decideRecording`).
 */
export class RecordedRefusal<E = unknown> extends DomainError {
  constructor(
    code: DomainErrorCode,
    message: string,
    readonly events: readonly E[],
  ) {
    super(code, message);
  }
}

/** Runs a decide function: its events, or a RecordedRefusal's events with the refusal to throw after the commit. */
export function decideRecording<E>(decide: () => E[]): { events: E[]; refusal: RecordedRefusal<E> | null } {
  try {
    return { events: decide(), refusal: null };
  } catch (err) {
    if (!(err instanceof RecordedRefusal)) throw err;
    return { events: [...(err as RecordedRefusal<E>).events], refusal: err as RecordedRefusal<E> };
  }
}

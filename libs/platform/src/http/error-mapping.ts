import { HttpException } from '@nestjs/common';
import { DomainError, STATUS_OF } from '../errors/domain-error.js';
import { isDependencyError } from '../health/dependency-errors.js';
import { type ErrorBody, errorBody } from './error-body.js';

const GENERIC: Record<number, string> = {
  400: 'Bad request.',
  401: 'Unauthenticated.',
  403: 'This action is unauthorized.',
  404: 'Not found.',
  405: 'Method not allowed.',
  406: 'Not acceptable.',
  409: 'Conflict.',
  413: 'Payload too large.',
  414: 'The request URL is too long.',
  415: 'Unsupported media type.',
  422: 'The given data was invalid.',
  429: 'Too many attempts.',
};

/** Errors Fastify raises before a route runs, e.g. while parsing the body. */
const FASTIFY: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Malformed JSON body.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'The JSON body is empty.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [400, 'Unsupported content type; send application/json.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Invalid Content-Length.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'The request body is too large.'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'A path parameter is too long.'],
  FST_ERR_BAD_URL: [400, 'The request URL is not valid.'],
  FST_ERR_ASYNC_CONSTRAINT: [400, 'Bad request.'],
};

export interface MappedError {
  readonly status: number;
  readonly body: ErrorBody;
  /** e.g. Retry-After on a 429. */
  readonly headers?: Readonly<Record<string, string>>;
  /** True when the error was not expected: it is logged with its stack. */
  readonly unexpected: boolean;
}

/** docs/http-conventions.md#dependency-outages: how long a client waits before asking again. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/**
 * Every failure to one status and body; an unknown error is a 500 whose details stay in the log. A
 * database or Redis that cannot be reached is a 503 with Retry-After on any route: the dependency
 * monitor logs the outage once, so it is not logged per request.
 */
export function mapError(err: unknown): MappedError {
  if (isDependencyError(err)) {
    return {
      status: 503,
      body: errorBody(503, 'Service unavailable: a server it depends on cannot be reached. Retry shortly.'),
      headers: { 'retry-after': String(OUTAGE_RETRY_AFTER_SECONDS) },
      unexpected: false,
    };
  }
  if (err instanceof DomainError) {
    const status = STATUS_OF[err.code];
    const retryAfter = (err as { retryAfterSeconds?: number }).retryAfterSeconds;
    const headers = retryAfter ? { 'retry-after': String(retryAfter) } : undefined;
    return { status, body: errorBody(status, err.message, err.errors), unexpected: false, ...(headers && { headers }) };
  }
  if (err instanceof HttpException) return fromHttpException(err);
  const fastify = fastifyError(err);
  if (fastify) return fastify;
  return { status: 500, body: errorBody(500, 'Server error.'), unexpected: true };
}

function fromHttpException(err: HttpException): MappedError {
  const status = err.getStatus();
  const response = err.getResponse();
  let message = GENERIC[status] ?? err.message;
  if (typeof response === 'string') message = response;
  else if (response && typeof response === 'object' && 'message' in response) {
    const m = (response as { message: unknown }).message;
    if (typeof m === 'string') message = m;
  }
  return { status, body: errorBody(status, message), unexpected: status >= 500 };
}

function fastifyError(err: unknown): MappedError | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const { code, statusCode } = err as { code?: unknown; statusCode?: unknown };
  const known = typeof code === 'string' ? FASTIFY[code] : undefined;
  if (known) return { status: known[0], body: errorBody(known[0], known[1]), unexpected: false };
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return {
      status: statusCode,
      body: errorBody(statusCode, GENERIC[statusCode] ?? 'Bad request.'),
      unexpected: false,
    };
  }
  return undefined;
}

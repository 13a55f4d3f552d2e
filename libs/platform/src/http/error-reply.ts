import { Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { ErrorBody } from './error-body.js';
import { reportDependencyError } from '../health/dependency-monitor.js';
import { noteRequestFailure } from '../logging/logging.module.js';
import { mapError } from './error-mapping.js';

const logger = new Logger('HTTP');

/**
 * Sends an error body (docs/http-conventions.md#the-error-body), or any early refusal the hooks make,
 * as JSON with its status.
 */
export function replyWith(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Answers `err` as every error leaves this service: mapped to its status and body (error-mapping.ts),
 * its headers (Retry-After) set, and an unexpected one logged with its stack and named on the
 * request's line (a lost dependency is the dependency monitor's to log, once per outage). The global filter,
 * the router's framework errors and the hooks that refuse a request early all answer through it.
 */
export function replyWithError(reply: FastifyReply, err: unknown): FastifyReply {
  const { status, body, headers, unexpected } = mapError(err);
  if (status === 503) reportDependencyError(err);
  if (unexpected) {
    logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    if (reply.request?.raw) noteRequestFailure(reply.request.raw, err);
  }
  if (headers) void reply.headers(headers);
  // RFC 9110 11.6.1: a 401 names the scheme that would do (docs/http-conventions.md#authentication).
  if (status === 401) void reply.header('www-authenticate', (err as { challenge?: string }).challenge ?? 'Bearer');
  return replyWith(reply, status, body);
}

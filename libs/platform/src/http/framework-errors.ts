import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { replyWithError } from './error-reply.js';

export type SecurityHeaders = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * Fastify's `frameworkErrors`: failures its router meets before any hook runs (a path parameter
 * over `maxParamLength`, a URL it cannot decode). Answered like every other error: the error body
 * (docs/http-conventions.md#the-error-body), the security headers and the request id.
 */
export function frameworkErrorHandler(securityHeaders: SecurityHeaders) {
  return (err: unknown, req: FastifyRequest, reply: FastifyReply): void => {
    securityHeaders(req.raw, reply.raw, () => void replyWithError(reply.header('x-request-id', req.id), err));
  };
}

/**
 * Node's `clientError`: a request that never became one (broken framing, headers over the size
 * limit, a timeout). There is no request object, so the answer is written to the socket by hand,
 * with the same body shape, the same security headers and a fresh request id.
 */
export function clientErrorHandler(securityHeaders: SecurityHeaders) {
  const headerLines = captureHeaders(securityHeaders);
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const message =
      status === 431
        ? 'The request headers are too large.'
        : status === 408
          ? 'The request took too long to arrive.'
          : 'The request is not valid HTTP.';
    const body = JSON.stringify({ message, status_code: status });
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
          'content-type: application/json; charset=utf-8\r\n' +
          `content-length: ${Buffer.byteLength(body)}\r\n` +
          'connection: close\r\n' +
          `x-request-id: ${randomUUID()}\r\n` +
          headerLines +
          `\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}

/** The headers the security middleware sets, as raw header lines, computed once. */
function captureHeaders(securityHeaders: SecurityHeaders): string {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: unknown) =>
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
  };
  securityHeaders({ headers: {} } as IncomingMessage, res as unknown as ServerResponse, () => undefined);
  return [...headers].map(([name, value]) => `${name}: ${value}\r\n`).join('');
}

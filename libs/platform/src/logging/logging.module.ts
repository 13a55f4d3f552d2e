import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { LoggerModule, type PinoLogger } from 'nestjs-pino';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { prettyDestination } from './pretty.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes the caller's X-Request-Id when it is sane, else makes one; the same id goes to logs and the reply. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  if (typeof given === 'string' && REQUEST_ID.test(given)) return given;
  const id = randomUUID();
  req.headers['x-request-id'] = id;
  return id;
}

/** The unexpected error a request was answered 500 for (error-reply.ts), for its request line. */
const failures = new WeakMap<IncomingMessage, string>();

/** Notes the error a request is answered 500 for: its line names it (`error`). */
export function noteRequestFailure(req: IncomingMessage, err: unknown): void {
  failures.set(req, err instanceof Error ? `${err.name}: ${err.message}` : String(err));
}

/** The path without its query: a signed file URL carries its `signature` there. */
const pathOf = (url: string | undefined) => (url ?? '').split('?', 1)[0]!;

/**
 * One `info` line per request (`error` for a 5xx), once its connection is done with it: method,
 * the route's pattern (`/api/files/:id/content`; the bare path when no route matched), status,
 * duration in ms and, like every record made for the request, its id; a 500 also names its
 * error (`error`: class and message; the stack is the filter's own line). Never a query string, a
 * header or a body. `GET /health` and its sub-routes go unlogged. A Fastify hook rather than pino-http's own
 * logging, so preflights and the refusals made before any middleware are logged too.
 *
 * The line is written on the raw response's `close`, not in Fastify's `onResponse`: that hook runs
 * on `finish` only, and a response whose socket closes first (a client that stops a download, or
 * one that has read the whole body and hangs up before the last write is flushed) would go
 * unlogged. (No `aborted` flag: a client that has read a streamed body to its Content-Length and
 * hangs up before the server's final `end()` looks the same from here as one that gave up.)
 */
export function logRequests(app: NestFastifyApplication, logger: PinoBaseLogger | undefined): void {
  if (!logger) return;
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (req, reply, done) => {
      const path = pathOf(req.raw.url);
      if (path === '/health' || path.startsWith('/health/')) return done();
      reply.raw.once('close', () => {
        const pattern = req.routeOptions.url;
        const error = failures.get(req.raw);
        const line = {
          reqId: req.id,
          method: req.method,
          route: pattern && pattern !== '*' ? pattern : path.slice(0, 200),
          status: reply.statusCode,
          duration_ms: Math.round(reply.elapsedTime * 10) / 10,
          ...(error !== undefined && { error }),
        };
        // A 503 is a dependency outage, logged once by the dependency monitor, not at error per request.
        if (reply.statusCode === 503) logger.warn(line, 'request completed');
        else if (reply.statusCode >= 500) logger.error(line, 'request completed');
        else logger.info(line, 'request completed');
      });
      done();
    });
}

type PinoBaseLogger = Pick<PinoLogger['logger'], 'info' | 'warn' | 'error'>;

@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        pinoHttp: {
          level: config.log.level,
          stream: config.log.destination ?? (config.log.pretty ? prettyDestination() : undefined),
          genReqId: (req: IncomingMessage) => requestIdOf(req),
          // Records made while handling a request carry its id only, not the request (whose URL may
          // hold a signature and whose headers a token).
          quietReqLogger: true,
          quietResLogger: true,
          serializers: {
            req: (req: { method?: string; url?: string }) => ({
              method: req.method,
              path: (req.url ?? '').split('?', 1)[0],
            }),
            res: (res: { statusCode?: number }) => ({ status: res.statusCode }),
          },
          // Tokens, passwords and keys never reach the log.
          redact: [
            'req.headers.authorization',
            'req.headers.cookie',
            'req.body.password',
            'req.body.token',
            'req.body.key',
          ],
          // The request line is logRequests' (http-app.ts), one per request.
          autoLogging: false,
        },
      }),
    }),
  ],
})
export class LoggingModule {}

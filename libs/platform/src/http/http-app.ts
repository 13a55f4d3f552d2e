import type { IncomingMessage } from 'node:http';
import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { onSendHookHandler } from 'fastify';
import helmet from 'helmet';
import { Logger, PinoLogger } from 'nestjs-pino';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { logRequests, requestIdOf } from '../logging/logging.module.js';
import { Metrics } from '../metrics/metrics.js';
import { METRICS_SCHEME } from '../metrics/metrics.openapi.js';
import { checkAccept, checkContentType } from './accept.js';
import { corsOptions, isPreflight } from './cors.js';
import { replyWith } from './error-reply.js';
import { clientErrorHandler, frameworkErrorHandler } from './framework-errors.js';
import { HttpExceptionFilter } from './http-exception.filter.js';
import { ContractFastifyAdapter } from './http-adapter.js';
import { guardJsonBodies } from './json-body.js';
import { OUTAGE_RESPONSE } from './openapi.js';
import { finishDocument } from './openapi-document.js';
import { validationPipe } from './validation.js';
import { QuietStartLogger, StartFailureLogger } from '../logging/start-logs.js';

/** Routes the Accept rule guards: the API and its authentication routes, not the docs page. */
const NEGOTIATED = /^\/(api|auth\/api)(\/|$)/;
// The docs page, and signed file downloads (an <img> asks for image/*, not JSON).
const UNNEGOTIATED = /^\/api\/(docs|files\/\d+\/content)/;
/** Whether the Accept and content-type rules judge this request (a CORS preflight they leave alone). */
const negotiated = (req: { method: string; url: string }) =>
  req.method !== 'OPTIONS' && NEGOTIATED.test(req.url) && !UNNEGOTIATED.test(req.url);
/** Signed file downloads: embeddable from another origin (`<img>`), cached by the browser. */
const SIGNED_CONTENT = /^\/api\/files\/\d+\/content(\?|$)/;

/** The longest path parameter the router takes: longer ones are a 414. */
const MAX_PARAM_LENGTH = 2048;

/**
 * docs/http-conventions.md#compression: JSON (the vendor type too), CSV, iCalendar and the OpenAPI
 * document (JSON or YAML). The plugin also compresses what its type table calls compressible (the docs
 * page's HTML and scripts), never images or PDFs.
 */
const COMPRESSED_TYPES = /^(application\/([\w.+-]*\+)?json|text\/(csv|calendar)|(application|text)\/(x-)?yaml)\b/i;
/** What the plugin never compresses: the file downloads, sent as stored (compressed already). */
const STORED_AS_IS = /^(image\/|application\/pdf)/i;
/** Answers above 1 KiB are compressed: the plugin compresses from `threshold` bytes on. */
const COMPRESS_FROM_BYTES = 1025;

/** No JSON body is read past this, whatever a route allows (json-body.ts sets each route's own). */
const BODY_CEILING = 1_048_576;

/**
 * The HTTP application with every convention of docs/http-conventions.md: error body, Accept rule, validation,
 * request ids, helmet and the OpenAPI document. Used by the api and standalone processes and by
 * the e2e tests, so what the tests see is what clients get.
 */
export async function createHttpApp(
  rootModule: unknown,
  options: { logger?: boolean } = {},
): Promise<NestFastifyApplication> {
  // Swagger UI ships inline scripts and styles; the API itself answers JSON only. helmet is built
  // once: @fastify/helmet built it anew on every request (option checks, CSP parsing), a
  // measurable share of a request's CPU (bench/README.md).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'unsafe-inline'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        // A LAN install without TLS serves plain HTTP under its own host name: with this directive the
        // browser fetches the docs page's and the dashboard's scripts over https, and shows nothing
        // (docs/http-conventions.md#security-headers). HSTS stays the way to insist on TLS.
        upgradeInsecureRequests: null,
      },
    },
  });
  const adapter = new ContractFastifyAdapter({
    genReqId: (req: IncomingMessage) => requestIdOf(req),
    bodyLimit: BODY_CEILING,
    // A calendar feed path carrying something longer than a feed token (a JWT, say) is a 404 like
    // any unknown token, not a 414 (docs/http-conventions.md#status-codes).
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Errors met before any hook runs get the same body and headers as the rest.
    frameworkErrors: frameworkErrorHandler(securityHeaders),
    clientErrorHandler: clientErrorHandler(securityHeaders),
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule as never, adapter, {
    // Buffered until the application's logger takes over; a failed start hands them to StartFailureLogger.
    bufferLogs: true,
    logger: new StartFailureLogger(),
    abortOnError: false,
  });
  if (options.logger !== false) app.useLogger(new QuietStartLogger(app.get(Logger)));
  app.enableShutdownHooks();
  app.useGlobalFilters(new HttpExceptionFilter());
  app.useGlobalPipes(validationPipe());
  guardJsonBodies(app, BODY_CEILING);
  const config = app.get<AppConfig>(APP_CONFIG);
  // Off unless CORS_ORIGINS names origins. Nest runs its hook before every hook below, so a
  // preflight is answered before the Accept rule could refuse it, and early refusals carry the
  // CORS headers a browser needs to read them.
  const cors = corsOptions(config.cors.origins);
  if (cors) app.enableCors(cors);
  const fastify = app.getHttpAdapter().getInstance();
  logRequests(app, PinoLogger.root);
  // docs/metrics.md: the route pattern, never the raw path (a path holds ids and tokens).
  const metrics = app.get(Metrics);
  fastify.addHook('onResponse', (req, reply, done) => {
    metrics.request(req.method, req.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  // First, so every answer carries them, the early refusals below too.
  fastify.addHook('onRequest', (req, reply, next) =>
    securityHeaders(req.raw, reply.raw, (error) => next(error as Error | undefined)),
  );
  fastify.addHook('onRequest', async (req, reply) => {
    void reply.header('x-request-id', req.id);
    if (SIGNED_CONTENT.test(req.url)) {
      // The signature is the permission: another origin's page may show the file (helmet's
      // same-origin stays on every other answer). The route sets its own Cache-Control.
      reply.raw.setHeader('cross-origin-resource-policy', 'cross-origin');
    } else {
      // Answers are per user: no shared or browser cache keeps them.
      void reply.header('cache-control', 'no-store');
    }
    // A preflight the CORS hook left alone: an unlisted origin, or CORS off (cors.ts).
    if (isPreflight(req)) return reply.code(204).send();
    if (!negotiated(req)) return;
    const refusal = checkAccept(req.headers.accept, req.routeOptions);
    if (refusal) return replyWith(reply, refusal.status, refusal.body);
  });
  // A preflight is answered by the CORS hook, before the hook above: it gets its id here. Only
  // with CORS on: without it there is no preflight, and no hook on every answer.
  if (cors) {
    fastify.addHook('onSend', (req, reply, payload, done) => {
      if (!reply.hasHeader('x-request-id')) void reply.header('x-request-id', req.id);
      done(null, payload);
    });
  }
  // The body's type is judged when the body is about to be read, after every onRequest hook: the
  // log-in routes' per-address count (identity) sees a refused body too.
  fastify.addHook('preParsing', async (req, reply) => {
    if (!negotiated(req)) return;
    const refusal = checkContentType(req.headers);
    if (refusal) return replyWith(reply, refusal.status, refusal.body);
  });
  // br or gzip by the client's preference, br on a tie (the order here); Vary: Accept-Encoding.
  await app.register(compress as never, {
    threshold: COMPRESS_FROM_BYTES,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSED_TYPES,
  });
  // docs/http-conventions.md#compression: an answer's coding depends on Accept-Encoding whether or
  // not this one was compressed (small, or not asked for) and on a 304, so every answer says
  // `Vary: Accept-Encoding` (RFC 9110 12.5.5), but a file sent as stored, which never is compressed.
  // The plugin adds it in lower case, to what it compressed only; written as RFC 9110 spells it. The
  // plugin's onSend is each route's own, which runs after every global one: this one is put after
  // it on each route.
  const varyOnEncoding: onSendHookHandler = (req, reply, payload, done) => {
    const names = String(reply.getHeader('vary') ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name && name.toLowerCase() !== 'accept-encoding');
    const type = String(reply.getHeader('content-type') ?? '');
    if (reply.hasHeader('content-encoding') || !STORED_AS_IS.test(type)) names.push('Accept-Encoding');
    if (names.length) void reply.header('vary', names.join(', '));
    done(null, payload);
  };
  fastify.addHook('onRoute', (route) => {
    route.onSend = [
      ...(Array.isArray(route.onSend) ? route.onSend : route.onSend ? [route.onSend] : []),
      varyOnEncoding,
    ];
  });
  await app.register(multipart as never, { limits: { fileSize: config.files.uploadMaxBytes, files: 1 } });
  setUpOpenApi(app, config.http.publicUrl);
  return app;
}

function setUpOpenApi(app: NestFastifyApplication, publicUrl: string): void {
  const config = new DocumentBuilder()
    .setTitle('Volunteer management API')
    .setDescription(
      'Rotas, shifts, expenses and claims for volunteer organisations. Errors always have the body ' +
        '`{ message, status_code, errors? }`; lists use the pagination envelope with `page` and `per_page` (max 100, alias `limit`).',
    )
    .setVersion('3')
    .addServer(publicUrl, 'This deployment (PUBLIC_URL)')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN (GET /metrics only)' }, METRICS_SCHEME)
    // Every operation needs the JWT unless it says otherwise (`@Public()`: `security: [{}]`).
    .addSecurityRequirements('bearer')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  documentOutages(document);
  SwaggerModule.setup('api/docs', app, finishDocument(document), { jsonDocumentUrl: 'api/docs-json' });
}

/**
 * docs/http-conventions.md#dependency-outages: any route answers 503 with Retry-After while PostgreSQL
 * or Redis cannot be reached, so every operation says so (the health routes have their own 503).
 */
function documentOutages(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = item[method];
      if (!operation || operation.responses['503']) continue;
      if (operation.tags?.includes('health')) continue;
      operation.responses['503'] = OUTAGE_RESPONSE;
    }
  }
}

/** Why a listen failed, in words an operator can act on (null: not an expected failure). */
export const LISTEN_FAILURES: Record<string, string> = {
  EADDRINUSE: 'the port is in use by another process (another npm start?): stop it, or set PORT',
  EACCES: 'this user may not listen on that port: set PORT (above 1023)',
  EADDRNOTAVAIL: 'this machine has no such address: set HOST',
};

/**
 * Listens and logs the one start-up line docs/operations.md promises ("Building and testing"). A busy or
 * forbidden port is an expected failure: one line on stderr and exit 1, not a stack trace.
 */
export async function listen(
  app: NestFastifyApplication,
  http: { port: number; host: string; publicUrl: string },
  mode: string,
): Promise<void> {
  try {
    await app.listen(http.port, http.host);
  } catch (err) {
    const why = LISTEN_FAILURES[(err as NodeJS.ErrnoException).code ?? ''];
    if (!why) throw err;
    process.stderr.write(`cannot listen on ${http.host}:${http.port}: ${why}\n`);
    await app.close().catch(() => undefined);
    process.exit(1);
  }
  app.get(Logger).log(`serving ${http.publicUrl} (mode: ${mode})`, 'Bootstrap');
}

export type { INestApplicationContext };

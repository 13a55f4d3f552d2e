import type { IncomingMessage } from 'node:http';
import multipart from '@fastify/multipart';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { requestIdOf } from '../logging/logging.module.js';
import { checkAccept, checkContentType } from './accept.js';
import { HttpExceptionFilter } from './http-exception.filter.js';
import { validationPipe } from './validation.js';

/** Routes the Accept rule guards: the API and its authentication routes, not the docs page. */
const NEGOTIATED = /^\/(api|auth\/api)(\/|$)/;
// The docs page, and signed file downloads (an <img> asks for image/*, not JSON).
const UNNEGOTIATED = /^\/api\/(docs|files\/\d+\/content)/;

/**
 * The HTTP application with every convention of api.md: error body, Accept rule, validation,
 * request ids, helmet and the OpenAPI document. Used by the api and standalone processes and by
 * the e2e tests, so what the tests see is what clients get.
 */
export async function createHttpApp(rootModule: unknown, options: { logger?: boolean } = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ genReqId: (req: IncomingMessage) => requestIdOf(req), bodyLimit: 1_048_576 });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule as never, adapter, {
    bufferLogs: true,
    abortOnError: false,
  });
  if (options.logger !== false) app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  app.useGlobalFilters(new HttpExceptionFilter());
  app.useGlobalPipes(validationPipe());
  const fastify = app.getHttpAdapter().getInstance();
  // Swagger UI ships inline scripts and styles; the API itself answers JSON only. helmet is built
  // once: @fastify/helmet built it anew on every request (option checks, CSP parsing), a
  // measurable share of a request's CPU (bench/README.md).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'", "'unsafe-inline'"], styleSrc: ["'self'", "'unsafe-inline'"], imgSrc: ["'self'", 'data:'] },
    },
  });
  // First, so every answer carries them, the early refusals below too.
  fastify.addHook('onRequest', (req, reply, next) => securityHeaders(req.raw, reply.raw, (error) => next(error as Error | undefined)));
  fastify.addHook('onRequest', async (req, reply) => {
    void reply.header('x-request-id', req.id);
    if (!NEGOTIATED.test(req.url) || UNNEGOTIATED.test(req.url)) return;
    const refusal = checkAccept(req.headers.accept) ?? checkContentType(req.headers);
    if (refusal) return reply.status(refusal.status).type('application/json; charset=utf-8').send(refusal.body);
  });
  const { files } = app.get<AppConfig>(APP_CONFIG);
  await app.register(multipart as never, { limits: { fileSize: files.uploadMaxBytes, files: 1 } });
  setUpOpenApi(app);
  return app;
}

function setUpOpenApi(app: NestFastifyApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Volunteer management API')
    .setDescription(
      'Rotas, shifts, expenses and claims for volunteer organisations. Errors always have the body ' +
        '`{ message, status_code, errors? }`; lists use the pagination envelope with `page` and `per_page` (max 100, alias `limit`).',
    )
    .setVersion('3')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
}

/** Listens and logs the one start-up line operations.md promises. */
export async function listen(app: NestFastifyApplication, http: { port: number; host: string; publicUrl: string }, mode: string): Promise<void> {
  await app.listen(http.port, http.host);
  app.get(Logger).log(`serving ${http.publicUrl} (mode: ${mode})`, 'Bootstrap');
}

export type { INestApplicationContext };

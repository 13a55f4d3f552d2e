import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RouteConfig } from '@nestjs/platform-fastify';
import { DomainError } from '../errors/domain-error.js';
import { jsonShapeBreach } from './json-shape.js';

/**
 * The largest JSON body a route takes unless it says otherwise: ten times the largest honest body
 * of the routes that keep it (a claim naming 500 expenses is about 8 KB).
 */
export const DEFAULT_BODY_LIMIT = 65_536;

/** Strict: a byte sequence that is not UTF-8 is refused, not replaced. A BOM is dropped, as before. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A route's own body limit in bytes, for a route whose honest bodies are larger or much smaller
 * than DEFAULT_BODY_LIMIT. Over it: 413, before the body is read.
 */
export const BodyLimit = (bytes: number) => RouteConfig({ bodyLimit: bytes });

/**
 * JSON bodies as docs/http-conventions.md#routes-and-media-types, #status-codes want them, refused before
 * anything costly runs: over the route's byte limit a 413; nested, wide or long beyond JSON_LIMITS, not JSON,
 * not valid UTF-8, or not a JSON object at the top (an array, `null`, a number) a 400. Prototype-poisoning keys stay
 * refused, as Fastify's own parser does.
 */
export function guardJsonBodies(app: NestFastifyApplication, ceiling: number): void {
  const fastify = app.getHttpAdapter().getInstance();
  // Routes are registered at init(), after this hook: each gets its configured limit or the default.
  fastify.addHook('onRoute', (route) => {
    const own = (route.config as { bodyLimit?: unknown } | undefined)?.bodyLimit;
    route.bodyLimit = typeof own === 'number' ? own : DEFAULT_BODY_LIMIT;
  });
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  app.useBodyParser('application/json', { bodyLimit: ceiling }, (req, body, done) => {
    let text: string;
    try {
      text = UTF8.decode(body);
    } catch {
      // Decoding leniently would store U+FFFD in place of the bad bytes (docs/http-conventions.md#status-codes).
      return done(new DomainError('bad_request', 'The request body is not valid UTF-8.'), undefined);
    }
    const breach = jsonShapeBreach(text);
    if (breach) return done(new DomainError('bad_request', breach), undefined);
    parseJson(req as never, text, (err, value) => {
      if (err) return done(err, undefined);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return done(new DomainError('bad_request', 'The JSON body must be an object.'), undefined);
      }
      done(null, value);
    });
  });
}

import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** @fastify/cors's options, as Nest's Fastify adapter takes them. */
type CorsOptions = Exclude<Parameters<NestFastifyApplication['enableCors']>[0], undefined>;

/** What a browser front end sends beyond the CORS-safelisted headers. */
export const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'X-Request-Id'];
/** What it may read of an answer beyond the safelisted ones. */
export const CORS_EXPOSED_HEADERS = ['Location', 'Retry-After', 'X-Request-Id'];
export const CORS_METHODS = ['GET', 'POST', 'PUT', 'DELETE'];

/**
 * @fastify/cors options for CORS_ORIGINS (origins already normalised by the config schema), or
 * undefined when none is allowed: CORS stays off. An allowed origin is echoed back (with
 * `Vary: Origin`); any other origin, or a request without one, gets no CORS header at all. The
 * preflight of an unlisted origin (or of any origin with CORS off) is answered 204 without CORS
 * headers (isPreflight, http-app.ts): the browser then refuses the call itself, rather than
 * reading a 404 for a route that exists. No credentials: the API authenticates with a bearer
 * token, not cookies.
 */
export function corsOptions(origins: readonly string[]): CorsOptions | undefined {
  if (origins.length === 0) return undefined;
  const allowed = new Set(origins);
  return {
    origin: (origin: string | undefined, callback: (error: Error | null, allow: boolean) => void) =>
      callback(null, origin !== undefined && allowed.has(origin)),
    methods: CORS_METHODS,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
    credentials: false,
    strictPreflight: true,
  };
}

/** A CORS preflight: OPTIONS with an Origin and the method the browser asks about. */
export const isPreflight = (req: { method: string; headers: Record<string, unknown> }): boolean =>
  req.method === 'OPTIONS' &&
  req.headers.origin !== undefined &&
  req.headers['access-control-request-method'] !== undefined;

import { timingSafeEqual } from 'node:crypto';
import { type ErrorBody, errorBody } from '../http/error-body.js';

/**
 * docs/metrics.md: with no token configured the route does not exist (the 404 of an unknown route);
 * otherwise only `Authorization: Bearer <token>` reads it (401). Null: let it through.
 */
export function metricsRefusal(token: string | undefined, authorization: string | undefined): ErrorBody | null {
  if (!token) return errorBody(404, 'Cannot GET /metrics');
  const given = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
  if (given === undefined) return errorBody(401, 'Missing metrics token: send Authorization: Bearer <METRICS_TOKEN>');
  const [a, b] = [Buffer.from(given), Buffer.from(token)];
  if (a.length !== b.length || !timingSafeEqual(a, b)) return errorBody(401, 'Wrong metrics token');
  return null;
}

/** A 401 names the Bearer scheme (RFC 9110 11.6.1; docs/metrics.md#access), as the API's do. */
export const refusalHeaders = (refusal: ErrorBody): Record<string, string> =>
  refusal.status_code === 401 ? { 'www-authenticate': 'Bearer' } : {};

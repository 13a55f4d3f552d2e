import { errorBody, type ErrorBody } from './error-body.js';

const VENDOR = /^application\/x\.uvol\.v(\d+)\+json$/;
export const API_VERSION = 3;

/**
 * What a route answers in instead of JSON, set on the route itself:
 * `@RouteConfig({ produces: ['text/csv'] })` (from @nestjs/platform-fastify). The Accept rule then
 * serves a list naming one of those types, or a wildcard covering one, and refuses a list that
 * names only JSON with a 406.
 */
export interface ProducesConfig {
  readonly produces?: readonly string[];
}

/** Media type and parameters of each entry of an Accept list; entries with q=0 are refusals and left out. */
function acceptedTypes(header: string): string[] {
  return header
    .split(',')
    .map((part) => part.split(';').map((p) => p.trim().toLowerCase()))
    .filter(([, ...params]) => !params.some((p) => /^q=0(\.0{0,3})?$/.test(p)))
    .map(([type]) => type!);
}

function covers(range: string, type: string): boolean {
  if (range === '*/*' || range === type) return true;
  return range.endsWith('/*') && type.startsWith(range.slice(0, -1));
}

const JSON_ONLY = ['application/json'] as const;

/**
 * The Accept rule (docs/http-conventions.md#routes-and-media-types): absent, any JSON-compatible
 * type or our vendor type at version 3 is served; the vendor type at another version is a 400; a
 * list that accepts nothing we produce is a 406. A route producing another type
 * (`route.config.produces`) is served for a list naming it or a wildcard covering it, and not for one
 * naming only JSON. Returns the refusal, or null to serve.
 */
export function checkAccept(
  header: string | undefined,
  route?: { readonly config?: unknown },
): { status: number; body: ErrorBody } | null {
  if (!header || !header.trim()) return null;
  const produces = (route?.config as ProducesConfig | undefined)?.produces ?? JSON_ONLY;
  let otherVersion: string | undefined;
  for (const type of acceptedTypes(header)) {
    const vendor = VENDOR.exec(type);
    if (vendor && Number(vendor[1]) !== API_VERSION) {
      otherVersion = vendor[1];
      continue;
    }
    // Our vendor type at this version is JSON.
    if (produces.some((p) => covers(vendor ? 'application/json' : type, p))) return null;
  }
  if (otherVersion !== undefined) {
    return {
      status: 400,
      body: errorBody(400, `API version ${otherVersion} is not supported; this server speaks version ${API_VERSION}.`),
    };
  }
  const what =
    produces === JSON_ONLY
      ? 'This API produces application/json only.'
      : `This route produces ${produces.join(', ')} only.`;
  return { status: 406, body: errorBody(406, what) };
}

/**
 * Which of a route's `produces` types to answer in, for a request the Accept rule served: the first
 * that the Accept list covers, taking its entries by q (highest first) then in order (absent, `*\/*`
 * or a JSON type: the first produced). Our vendor type counts as application/json.
 */
export function preferredType(header: string | undefined, produces: readonly string[]): string {
  const entries = (header ?? '')
    .split(',')
    .map((part, i) => {
      const [type = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      return { type: VENDOR.test(type) ? 'application/json' : type, q: q ? Number(q.slice(2)) : 1, i };
    })
    .filter((e) => e.type && e.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { type } of entries) {
    const hit = produces.find((p) => covers(type, p));
    if (hit) return hit;
  }
  return produces[0]!;
}

const BODY_TYPES = /^(application\/json|multipart\/form-data)\s*(;|$)/i;
/** The charset parameter of a Content-Type, quoted or not. */
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

/**
 * A request that carries a body must send it as JSON (or multipart, for uploads), in UTF-8 if it
 * names a charset: Fastify would otherwise hand a text/plain body to validation, which answers 422
 * where docs/http-conventions.md#routes-and-media-types says 400, and read a UTF-16 one as UTF-8.
 */
export function checkContentType(
  headers: Record<string, string | string[] | undefined>,
): { status: number; body: ErrorBody } | null {
  const length = headers['content-length'];
  const hasBody = (length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined;
  if (!hasBody) return null;
  const type = headers['content-type'];
  if (typeof type !== 'string' || !BODY_TYPES.test(type)) {
    return { status: 400, body: errorBody(400, 'Unsupported content type; send application/json.') };
  }
  // Bodies are read as UTF-8 whatever the header says: another charset would be misread, not converted.
  const charset = CHARSET.exec(type)?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    return { status: 400, body: errorBody(400, `Unsupported charset ${charset}; send UTF-8.`) };
  }
  return null;
}

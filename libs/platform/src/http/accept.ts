import { errorBody, type ErrorBody } from './error-body.js';

const VENDOR = /^application\/x\.uvol\.v(\d+)\+json$/;
export const API_VERSION = 3;

/**
 * api.md's Accept rule: absent, any JSON-compatible type or our vendor type at version 3 is
 * served; the vendor type at another version is a 400; a list that accepts nothing we produce is
 * a 406. Returns the refusal, or null to serve.
 */
export function checkAccept(header: string | undefined): { status: number; body: ErrorBody } | null {
  if (!header || !header.trim()) return null;
  const types = header.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
  let otherVersion: string | undefined;
  for (const type of types) {
    if (type === '*/*' || type === 'application/*' || type === 'application/json') return null;
    const vendor = VENDOR.exec(type);
    if (vendor) {
      if (Number(vendor[1]) === API_VERSION) return null;
      otherVersion = vendor[1];
    }
  }
  if (otherVersion !== undefined) {
    return { status: 400, body: errorBody(400, `API version ${otherVersion} is not supported; this server speaks version ${API_VERSION}.`) };
  }
  return { status: 406, body: errorBody(406, 'This API produces application/json only.') };
}

const BODY_TYPES = /^(application\/json|multipart\/form-data)\s*(;|$)/i;

/**
 * A request that carries a body must send it as JSON (or multipart, for uploads): Fastify would
 * otherwise hand a text/plain body to validation, which answers 422 where api.md says 400.
 */
export function checkContentType(headers: Record<string, string | string[] | undefined>): { status: number; body: ErrorBody } | null {
  const length = headers['content-length'];
  const hasBody = (length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined;
  if (!hasBody) return null;
  const type = headers['content-type'];
  if (typeof type === 'string' && BODY_TYPES.test(type)) return null;
  return { status: 400, body: errorBody(400, 'Unsupported content type; send application/json.') };
}

/**
 * The contract test: every request an e2e test sends and every answer it gets is checked against
 * the OpenAPI document the same application serves (`/api/docs-json`). A violation does not stop
 * the request; it is recorded, and the test during which it happened fails (the afterEach of
 * openapi-contract.setup.ts), naming method, URL, route, status and the schema errors.
 *
 * Validator: openapi-backend (https://github.com/openapistack/openapi-backend). It reads OpenAPI
 * 3.0 (what @nestjs/swagger emits) and 3.1, validates the document itself on init, matches a
 * request to its operation (path templates, static paths first), parses query parameters by their
 * style (`include=user,type` with `style: form, explode: false`), coerces path and query values by
 * their schema, and compiles one Ajv 8 validator per operation and status once, at init. It is
 * maintained (releases through 2026) and used widely. The alternatives: openapi-request-validator /
 * openapi-response-validator (same family, older, no routing, no 3.1, little activity since 2022);
 * @seriousme/openapi-schema-validator checks documents, not traffic; express-openapi-validator is
 * Express middleware. ajv-formats adds the formats the document uses (date, date-time, uri, email).
 *
 * What is checked:
 * - every response: its status is declared for the operation, its content type is one the
 *   operation declares for that status (an empty body where none is declared, as for a 204), and
 *   a JSON body validates against the declared schema. Bodies of other types (CSV, file content,
 *   HTML) are checked for status and content type only.
 * - the request (path parameters, query parameters, JSON body) only when the answer is 2xx: tests
 *   send malformed input on purpose, and refusing it is the service's job; a 2xx to a request that
 *   breaks the documented schema is drift. Multipart bodies are checked for their content type.
 *   What the operation does not declare the service ignores, and so does the check: an undeclared
 *   query parameter, or a body sent to a route that takes none (OpenAPI leaves both undefined).
 * - Schemas are read strictly here, not in the served document: an object schema that lists
 *   properties gets `additionalProperties: false`, so an undocumented field in an answer (or an
 *   accepted undocumented body or query field) is a violation. The served document stays open so
 *   clients tolerate additions.
 * - OpenAPI 3.0's `nullable: true` beside `allOf: [{ $ref }]` (how @nestjs/swagger writes a
 *   nullable embedded record) means "this record or null"; Ajv reads `nullable` only beside `type`,
 *   so such a schema is rewritten to `anyOf: [{ enum: [null] }, …]` before compiling (`enum`, as
 *   `type: 'null'` is not OpenAPI 3.0 and the document is validated as 3.0).
 *
 * What is not an operation, and how it is judged:
 * - a route an e2e file adds for itself (a controller of an `extra` module given to bootApi /
 *   bootStandalone): not part of the service; its error answers must still have the ErrorBody shape.
 * - a request no operation matches (an unknown route, a wrong method): its answer must be an error
 *   with the ErrorBody shape; a 2xx there is an undocumented route. The documentation page and the
 *   document itself (`/api/docs*`) and CORS preflights (OPTIONS, answered by the CORS hook before
 *   any route) are not checked.
 * - answers written to the socket before Fastify made a request of it (broken framing, headers
 *   over the limit: framework-errors.ts `clientErrorHandler`) pass no hook and are not seen.
 */
import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import addFormatsModule from 'ajv-formats';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OpenAPIBackend, type Operation, ValidationContext } from 'openapi-backend';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { recordedViolations } from './contract-violations.js';

type Json = Record<string, unknown>;
type Document = Json & { paths: Record<string, Record<string, Json>>; components?: { schemas?: Record<string, Json> } };
type OpenApiOperation = Operation & { responses?: Record<string, { content?: Record<string, { schema?: Json }> }> };

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: unknown) => unknown;

/** Not checked: the documentation page, its assets and the document. */
const UNCHECKED = /^\/api\/docs(-json|\/|$)/;
const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json$/;

/** One compiled checker per document (same JSON, same checker): apps of one file share it. */
const checkers = new Map<string, Promise<Checker>>();

/**
 * Watches `app` (before `app.init()`): each answer is checked once the document is known, which
 * `ready(app)` (after init) fetches. `extra` are the test-only modules given to the boot helper.
 */
export function watchContract(app: NestFastifyApplication, extra: readonly (Type<unknown> | DynamicModule)[] = []): { ready(): Promise<void> } {
  const fastify = app.getHttpAdapter().getInstance();
  let checker: Checker | undefined;
  const fixtures = fixtureControllers(extra);
  fastify.addHook('onSend', (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    if (checker) {
      try {
        checker.check(req, reply, payload, fixtures);
      } catch (err) {
        record(req, reply, `the contract check itself failed: ${(err as Error).stack ?? String(err)}`);
      }
    }
    done(null, payload);
  });
  return {
    async ready() {
      const res = await fastify.inject({ method: 'GET', url: '/api/docs-json' });
      if (res.statusCode !== 200) throw new Error(`GET /api/docs-json answered ${res.statusCode}`);
      let pending = checkers.get(res.body);
      if (!pending) {
        pending = Checker.create(JSON.parse(res.body) as Document);
        checkers.set(res.body, pending);
      }
      checker = await pending;
    },
  };
}

/** Names of the controllers of the test-only modules: their operation ids start with them. */
function fixtureControllers(extra: readonly (Type<unknown> | DynamicModule)[]): Set<string> {
  const names = new Set<string>();
  for (const m of extra) {
    const dynamic = 'module' in m ? (m as DynamicModule) : undefined;
    const controllers: Type<unknown>[] = [
      ...((Reflect.getMetadata('controllers', dynamic?.module ?? m) as Type<unknown>[] | undefined) ?? []),
      ...(dynamic?.controllers ?? []),
    ];
    for (const c of controllers) names.add(c.name);
  }
  return names;
}

function record(req: FastifyRequest, reply: FastifyReply, problem: string): void {
  recordedViolations().push({ method: req.method, url: req.url, route: req.routeOptions?.url ?? '(no route)', status: reply.statusCode, problem });
}

const describeErrors = (where: string, errors: readonly ErrorObject[] | null | undefined) =>
  `${where}: ${(errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`).join('; ')}`;

class Checker {
  private constructor(
    private readonly api: OpenAPIBackend,
    private readonly errorBody: ValidateFunction,
  ) {}

  static async create(document: Document): Promise<Checker> {
    // One Ajv per validation context (openapi-backend makes one per operation, and each new Ajv
    // with its formats costs more than the compiling), each operation's validators compiled on
    // its first use (quick); the document's own validity is redocly's job (npm run lint:openapi)
    // and openapi-document.e2e-spec.ts's.
    const ajvs = new Map<string, Ajv>();
    const api = new OpenAPIBackend({
      definition: forAjv(document) as never,
      strict: true,
      quick: true,
      validate: true,
      coerceTypes: true,
      customizeAjv: (fresh, _options, context) => {
        if (!ajvs.has(context)) {
          addFormats(fresh);
          ajvs.set(context, fresh);
        }
        return ajvs.get(context)!;
      },
    });
    await api.init();
    const schemas = (api.definition as unknown as Document).components?.schemas ?? {};
    if (!schemas.ErrorBody) throw new Error('The document has no ErrorBody schema');
    const errorBody = api.validator.getAjv(ValidationContext.Response).compile(schemas.ErrorBody);
    return new Checker(api, errorBody);
  }

  check(req: FastifyRequest, reply: FastifyReply, payload: unknown, fixtures: ReadonlySet<string>): void {
    const path = req.url.split('?')[0]!;
    if (req.method === 'OPTIONS' || UNCHECKED.test(path)) return;
    const status = reply.statusCode;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const operation = this.api.router.matchOperation({ method, path: req.url, headers: {} }) as OpenApiOperation | undefined;
    const fixture = operation?.operationId && fixtures.has(operation.operationId.split('_')[0]!);
    const contentType = String(reply.getHeader('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!operation || fixture) {
      if (status < 400) {
        if (!fixture) record(req, reply, 'no operation of the document matches this request, yet it succeeded: an undocumented route');
        return;
      }
      this.checkErrorBody(req, reply, contentType, payload);
      return;
    }
    const responses = operation.responses ?? {};
    const declared = responses[String(status)] ?? responses[`${Math.floor(status / 100)}XX`] ?? responses.default;
    if (!declared) {
      record(req, reply, `status ${status} is not declared for ${operation.operationId} (declared: ${Object.keys(responses).join(', ')})`);
      return;
    }
    if (status >= 200 && status < 300) this.checkRequest(req, reply, operation);
    const content = declared.content ?? {};
    const types = Object.keys(content);
    const body = bodyText(payload);
    if (!types.length) {
      if (body !== undefined && body !== '') record(req, reply, `${operation.operationId} declares no body for ${status}, but one was sent (${contentType || 'no content type'})`);
      return;
    }
    const media = types.find((t) => t === contentType || (t.endsWith('/*') && contentType.startsWith(t.slice(0, -1))) || t === '*/*');
    if (!media) {
      record(req, reply, `content type "${contentType}" is not declared for ${operation.operationId} ${status} (declared: ${types.join(', ')})`);
      return;
    }
    if (req.method === 'HEAD' || !JSON_TYPE.test(media)) return; // non-JSON bodies: status and type only
    if (body === undefined) {
      record(req, reply, `${operation.operationId} ${status}: a JSON body was declared, the payload is a stream`);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      record(req, reply, `${operation.operationId} ${status}: the body is not JSON`);
      return;
    }
    const result = this.api.validator.validateResponse(parsed, operation, status);
    if (!result.valid) record(req, reply, describeErrors(`response body of ${operation.operationId}`, result.errors));
  }

  private checkErrorBody(req: FastifyRequest, reply: FastifyReply, contentType: string, payload: unknown): void {
    if (req.method === 'HEAD') return;
    if (!JSON_TYPE.test(contentType)) {
      record(req, reply, `an error answered as "${contentType}", not as the JSON ErrorBody`);
      return;
    }
    const body = bodyText(payload);
    let parsed: unknown;
    try {
      parsed = body === undefined ? undefined : JSON.parse(body);
    } catch {
      /* reported below */
    }
    if (!this.errorBody(parsed)) record(req, reply, describeErrors('error body (ErrorBody)', this.errorBody.errors));
  }

  /** The request of a 2xx: path and query parameters, and the body by its content type. */
  private checkRequest(req: FastifyRequest, reply: FastifyReply, operation: OpenApiOperation): void {
    const requestType = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const declaredBody = (operation.requestBody as { content?: Record<string, unknown> } | undefined)?.content;
    const isJson = req.body !== undefined && JSON_TYPE.test(requestType);
    if (requestType && declaredBody && !(requestType in declaredBody)) {
      record(req, reply, `request content type "${requestType}" is not declared for ${operation.operationId} (declared: ${Object.keys(declaredBody).join(', ')})`);
    }
    const result = this.api.validator.validateRequest(
      {
        method: req.method === 'HEAD' ? 'GET' : req.method,
        path: req.url,
        query: { ...(req.query as Record<string, string | string[]>) },
        headers: { ...(req.headers as Record<string, string | string[]>), ...(isJson ? {} : { 'content-type': '' }) },
        body: isJson ? structuredClone(req.body) : undefined,
      },
      operation,
    );
    const errors = (result.errors ?? []).filter(
      (e) =>
        // Query parameters the operation does not declare are ignored by the service (OpenAPI
        // leaves them undefined, it does not forbid them): not drift.
        !(e.keyword === 'additionalProperties' && e.instancePath === '/query') &&
        // A multipart body is not validated field by field (the file is a stream): only its type.
        !(!isJson && requestType === 'multipart/form-data' && e.keyword === 'required' && (e.params as { missingProperty?: string }).missingProperty === 'requestBody'),
    );
    if (errors.length) record(req, reply, describeErrors(`request of ${operation.operationId} (answered ${reply.statusCode})`, errors));
  }
}

function bodyText(payload: unknown): string | undefined {
  if (payload === undefined || payload === null) return '';
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return undefined; // a stream
}

/**
 * A copy of the document for Ajv: strict objects (an undocumented field is a violation) and
 * nullable embedded records written the way Ajv reads them. The served document is unchanged.
 */
export function forAjv(document: Document): Document {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) out[k] = k === 'example' || k === 'examples' ? v : visit(v);
    if (out.properties && typeof out.properties === 'object' && out.additionalProperties === undefined && !out.allOf && !out.oneOf && !out.anyOf) {
      out.additionalProperties = false;
    }
    if (out.nullable === true && (Array.isArray(out.allOf) || Array.isArray(out.oneOf) || Array.isArray(out.anyOf))) {
      const { nullable: _nullable, description, ...rest } = out;
      if (rest.allOf) delete rest.type; // @nestjs/swagger's `type: 'object'` beside the allOf of a nullable record
      return { ...(description === undefined ? {} : { description }), anyOf: [{ enum: [null] }, rest] };
    }
    return out;
  };
  return { ...document, paths: visit(document.paths) as Document['paths'], components: visit(document.components) as Document['components'] };
}

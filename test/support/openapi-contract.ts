/**
 * The contract test: every request an e2e test sends and every answer it gets is checked against
 * the OpenAPI document the same application serves (`/api/docs-json`). A violation does not stop
 * the request; it is recorded, and the test during which it happened fails (the afterEach of
 * openapi-contract.setup.ts), naming method, URL, route, status and the schema errors.
 *
 * Validator: openapi-backend (https://github.com/openapistack/openapi-backend) for the OpenAPI part
 * and Ajv 8 with ajv-formats for the schemas. openapi-backend reads OpenAPI 3.0 (what
 * @nestjs/swagger emits) and 3.1, matches a request to its operation (path templates, static paths
 * first) and parses its parameters by their style (`include=user,type` with `style: form,
 * explode: false`); it is maintained (releases through 2026) and widely used. Its own validator
 * compiles every operation's schemas dereferenced, each with an Ajv of its own, which cost seconds
 * per test file here; so the schemas go to one Ajv that holds the document once (every component
 * compiled once, shared), each operation's validators compiled on first use. The alternatives:
 * openapi-request-validator / openapi-response-validator (same family, older, no routing, no 3.1,
 * little activity since 2022); @seriousme/openapi-schema-validator checks documents, not traffic;
 * express-openapi-validator is Express middleware. The document's own validity is checked by
 * openapi-document.e2e-spec.ts and `npm run lint:openapi` (redocly).
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
 * - `nullable` is read as Ajv (and so openapi-backend) reads it, as a client's validator would:
 *   only beside a `type`. Nothing of the document is rewritten to make a schema pass, so a nullable
 *   record written in a form strict tools misread fails here (openapi-document.ts writes them).
 *
 * What is not an operation, and how it is judged:
 * - a route an e2e file adds for itself (a controller of an `extra` module given to bootApi /
 *   bootStandalone): not part of the service; its error answers must still have the ErrorBody shape.
 * - a request no operation matches (an unknown route, a wrong method): its answer must be an error
 *   with the ErrorBody shape; a 2xx there is an undocumented route. The documentation page and the
 *   document itself (`/api/docs*`), the queue dashboard (`/admin/queues*`) and CORS preflights (OPTIONS, answered by the CORS hook before
 *   any route) are not checked.
 * - answers written to the socket before Fastify made a request of it (broken framing, headers
 *   over the limit: framework-errors.ts `clientErrorHandler`) pass no hook and are not seen.
 */
import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import AjvModule, { type Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Operation, OpenAPIRouter } from 'openapi-backend';
import { recordedViolations } from './contract-violations.js';

type Json = Record<string, unknown>;
type Document = Json & { paths: Record<string, Record<string, Json>>; components?: { schemas?: Record<string, Json> } };
type OpenApiOperation = Operation & { responses?: Record<string, { content?: Record<string, { schema?: Json }> }> };

const AjvClass = ((AjvModule as unknown as { default?: unknown }).default ?? AjvModule) as typeof Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: unknown,
) => unknown;

/**
 * Not checked: the documentation page, its assets and the document; the operator's queue dashboard
 * (bull-board's page and API, outside the document: docs/http-conventions.md#operator-routes).
 */
const UNCHECKED = /^\/(api\/docs(-json|\/|$)|admin\/queues(\/|\?|$))/;
const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json$/;

/** One compiled checker per document (same JSON, same checker): apps of one file share it. */
const checkers = new Map<string, Checker>();

/**
 * Watches `app` (before `app.init()`): each answer is checked once the document is known, which
 * `ready(app)` (after init) fetches. `extra` are the test-only modules given to the boot helper.
 */
export function watchContract(
  app: NestFastifyApplication,
  extra: readonly (Type<unknown> | DynamicModule)[] = [],
): { ready(): Promise<void> } {
  const fastify = app.getHttpAdapter().getInstance();
  let checker: Checker | undefined;
  const fixtures = fixtureControllers(extra);
  fastify.addHook(
    'onSend',
    (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
      if (checker) {
        try {
          checker.check(req, reply, payload, fixtures);
        } catch (err) {
          record(req, reply, `the contract check itself failed: ${(err as Error).stack ?? String(err)}`);
        }
      }
      done(null, payload);
    },
  );
  return {
    async ready() {
      const res = await fastify.inject({ method: 'GET', url: '/api/docs-json' });
      if (res.statusCode !== 200) throw new Error(`GET /api/docs-json answered ${res.statusCode}`);
      let found = checkers.get(res.body);
      if (!found) {
        found = Checker.create(JSON.parse(res.body) as Document);
        checkers.set(res.body, found);
      }
      checker = found;
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
  recordedViolations().push({
    method: req.method,
    url: req.url,
    route: req.routeOptions?.url ?? '(no route)',
    status: reply.statusCode,
    problem,
  });
}

const describeError = (e: ErrorObject) =>
  `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`;
const describeErrors = (where: string, errors: readonly ErrorObject[] | null | undefined) =>
  `${where}: ${(errors ?? []).map(describeError).join('; ')}`;

/** The formats OpenAPI 3.0 defines beyond JSON Schema's (ajv-formats adds date, date-time, uri, email). */
const OPENAPI_FORMATS: Record<string, { type: 'number' | 'string'; validate: (value: never) => boolean }> = {
  int32: { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 },
  int64: { type: 'number', validate: (n: number) => Number.isInteger(n) },
  float: { type: 'number', validate: () => true },
  double: { type: 'number', validate: () => true },
  binary: { type: 'string', validate: () => true },
  byte: { type: 'string', validate: (s: string) => /^[A-Za-z0-9+/]*={0,2}$/.test(s) },
  password: { type: 'string', validate: () => true },
};

/** `#/components/…` of the document → `doc#/components/…`: a schema compiled alone still reaches the document's. */
function rebased(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebased);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `doc${v}` : rebased(v),
    ]),
  );
}

type Parameter = { name: string; in: string; required?: boolean; schema?: Json };

class Checker {
  /** Per operation and status (`opId status`); per operation for requests. Compiled on first use, once. */
  private readonly responses = new Map<string, ValidateFunction | null>();
  private readonly requests = new Map<
    string,
    { params: ValidateFunction; body?: ValidateFunction; bodyRequired: boolean }
  >();

  private constructor(
    private readonly router: OpenAPIRouter,
    /** Bodies and answers: no coercion. */
    private readonly ajv: Ajv,
    /** Path and query parameters arrive as strings: coerced by their schema, a scalar to a one-item array. */
    private readonly paramsAjv: Ajv,
    private readonly errorBody: ValidateFunction,
  ) {}

  /**
   * One Ajv per kind, holding the document once (`doc`): each component schema is compiled once and
   * shared by every validator that refers to it (openapi-backend's own validator compiles each
   * operation's schemas dereferenced, with an Ajv of its own each: seconds per test file). Its
   * router still matches requests to operations and parses their parameters by style.
   */
  static create(document: Document): Checker {
    const prepared = forAjv(document);
    const make = (options: Options) => {
      const ajv = new AjvClass({ strict: false, allErrors: true, validateSchema: false, ...options });
      addFormats(ajv);
      for (const [name, format] of Object.entries(OPENAPI_FORMATS)) ajv.addFormat(name, format as never);
      ajv.addSchema(prepared as never, 'doc');
      return ajv;
    };
    const ajv = make({});
    if (!prepared.components?.schemas?.ErrorBody) throw new Error('The document has no ErrorBody schema');
    const errorBody = ajv.getSchema('doc#/components/schemas/ErrorBody')!;
    return new Checker(
      new OpenAPIRouter({ definition: prepared as never }),
      ajv,
      make({ coerceTypes: 'array' }),
      errorBody,
    );
  }

  check(req: FastifyRequest, reply: FastifyReply, payload: unknown, fixtures: ReadonlySet<string>): void {
    const path = req.url.split('?')[0]!;
    if (req.method === 'OPTIONS' || UNCHECKED.test(path)) return;
    const status = reply.statusCode;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const operation = this.router.matchOperation({ method, path: req.url, headers: {} }) as
      OpenApiOperation | undefined;
    const fixture = operation?.operationId && fixtures.has(operation.operationId.split('_')[0]!);
    const contentType = String(reply.getHeader('content-type') ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    if (!operation || fixture) {
      if (status < 400) {
        if (!fixture)
          record(
            req,
            reply,
            'no operation of the document matches this request, yet it succeeded: an undocumented route',
          );
        return;
      }
      this.checkErrorBody(req, reply, contentType, payload);
      return;
    }
    const responses = operation.responses ?? {};
    const key = responses[String(status)]
      ? String(status)
      : responses[`${Math.floor(status / 100)}XX`]
        ? `${Math.floor(status / 100)}XX`
        : responses.default
          ? 'default'
          : undefined;
    if (!key) {
      record(
        req,
        reply,
        `status ${status} is not declared for ${operation.operationId} (declared: ${Object.keys(responses).join(', ')})`,
      );
      return;
    }
    if (status >= 200 && status < 300) this.checkRequest(req, reply, operation);
    const content = responses[key]!.content ?? {};
    const types = Object.keys(content);
    const body = bodyText(payload);
    if (!types.length) {
      if (body !== undefined && body !== '')
        record(
          req,
          reply,
          `${operation.operationId} declares no body for ${status}, but one was sent (${contentType || 'no content type'})`,
        );
      return;
    }
    const media = types.find(
      (t) => t === contentType || (t.endsWith('/*') && contentType.startsWith(t.slice(0, -1))) || t === '*/*',
    );
    if (!media) {
      record(
        req,
        reply,
        `content type "${contentType}" is not declared for ${operation.operationId} ${status} (declared: ${types.join(', ')})`,
      );
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
    const validate = this.responseValidator(operation, key, media);
    if (validate && !validate(parsed))
      record(req, reply, describeErrors(`response body of ${operation.operationId}`, validate.errors));
  }

  private responseValidator(operation: OpenApiOperation, status: string, media: string): ValidateFunction | null {
    const id = `${operation.operationId} ${status} ${media}`;
    if (!this.responses.has(id)) {
      const schema = operation.responses?.[status]?.content?.[media]?.schema;
      this.responses.set(
        id,
        schema
          ? this.inDocument(
              this.ajv,
              'paths',
              operation.path,
              operation.method,
              'responses',
              status,
              'content',
              media,
              'schema',
            )
          : null,
      );
    }
    return this.responses.get(id)!;
  }

  /**
   * The validator of the schema at this place of the document, compiled where it stands: its
   * `#/components/…` references resolve in the document, and Ajv compiles each of them once for
   * every validator that reaches it (a schema compiled on its own would recompile its references).
   */
  private inDocument(ajv: Ajv, ...segments: string[]): ValidateFunction {
    const pointer = segments.map((s) => `/${encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))}`).join('');
    const validate = ajv.getSchema(`doc#${pointer}`);
    if (!validate) throw new Error(`No schema at ${segments.join(' ')}`);
    return validate;
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

  private requestValidators(operation: OpenApiOperation) {
    const id = operation.operationId!;
    let found = this.requests.get(id);
    if (!found) {
      const parameters = (operation.parameters ?? []) as Parameter[];
      const group = (where: string, additional: boolean) => {
        const own = parameters.filter((p) => p.in === where);
        return {
          type: 'object',
          properties: Object.fromEntries(own.map((p) => [p.name, rebased(p.schema ?? {})])),
          required: own.filter((p) => p.required).map((p) => p.name),
          // Query parameters the operation does not declare are ignored by the service (OpenAPI
          // leaves them undefined, it does not forbid them): not drift.
          additionalProperties: additional,
        };
      };
      const requestBody = operation.requestBody as
        { required?: boolean; content?: Record<string, { schema?: Json }> } | undefined;
      const bodySchema = requestBody?.content?.['application/json']?.schema;
      found = {
        params: this.paramsAjv.compile({
          type: 'object',
          properties: { path: group('path', false), query: group('query', true) },
        }),
        body: bodySchema
          ? this.inDocument(
              this.ajv,
              'paths',
              operation.path,
              operation.method,
              'requestBody',
              'content',
              'application/json',
              'schema',
            )
          : undefined,
        bodyRequired: requestBody?.required === true,
      };
      this.requests.set(id, found);
    }
    return found;
  }

  /** The request of a 2xx: path and query parameters, and the body by its content type. */
  private checkRequest(req: FastifyRequest, reply: FastifyReply, operation: OpenApiOperation): void {
    const validators = this.requestValidators(operation);
    const parsed = this.router.parseRequest(
      {
        method: req.method,
        path: req.url,
        query: { ...(req.query as Record<string, string | string[]>) },
        headers: {},
      },
      operation,
    );
    const params = { path: { ...parsed.params }, query: { ...parsed.query } };
    if (!validators.params(params))
      record(
        req,
        reply,
        describeErrors(
          `request parameters of ${operation.operationId} (answered ${reply.statusCode})`,
          validators.params.errors,
        ),
      );
    const requestType = String(req.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    const declared = (operation.requestBody as { content?: Record<string, unknown> } | undefined)?.content;
    if (!declared) return; // a body sent to a route that takes none is ignored, as the service does
    if (requestType && !(requestType in declared)) {
      record(
        req,
        reply,
        `request content type "${requestType}" is not declared for ${operation.operationId} (declared: ${Object.keys(declared).join(', ')})`,
      );
      return;
    }
    // A multipart body is not validated field by field (the file is a stream): only its type.
    if (requestType === 'multipart/form-data') return;
    if (req.body === undefined) {
      if (validators.bodyRequired)
        record(req, reply, `${operation.operationId} requires a body, yet answered ${reply.statusCode} without one`);
      return;
    }
    if (validators.body && !validators.body(req.body))
      record(
        req,
        reply,
        describeErrors(
          `request body of ${operation.operationId} (answered ${reply.statusCode})`,
          validators.body.errors,
        ),
      );
  }
}

function bodyText(payload: unknown): string | undefined {
  if (payload === undefined || payload === null) return '';
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return undefined; // a stream
}

/** A copy of the document for Ajv with strict objects (an undocumented field is a violation). The served document is unchanged. */
export function forAjv(document: Document): Document {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) out[k] = k === 'example' || k === 'examples' ? v : visit(v);
    if (
      out.properties &&
      typeof out.properties === 'object' &&
      out.additionalProperties === undefined &&
      !out.allOf &&
      !out.oneOf &&
      !out.anyOf
    ) {
      out.additionalProperties = false;
    }
    return out;
  };
  return {
    ...document,
    paths: visit(document.paths) as Document['paths'],
    components: visit(document.components) as Document['components'],
  };
}

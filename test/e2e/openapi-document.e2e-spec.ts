import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { OpenAPIBackend } from 'openapi-backend';
import request from 'supertest';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootApi } from '../support/test-http.js';
import { typescriptGlobals } from '../support/typescript-globals.js';

/**
 * Issue 12, item 4: the served OpenAPI document says, for every operation, what it takes and what
 * it answers: its parameters, a typed schema for each success and the ErrorBody
 * (docs/http-conventions.md#errors) for each error it can give, no bare `object` anywhere, its
 * security and its permission. (That the service keeps to it, answer by answer, is the contract
 * check every e2e test runs under: test/support/openapi-contract.ts.) expenses-openapi.e2e-spec.ts
 * checks the expenses and claims operations more closely.
 */

type Schema = {
  $ref?: string;
  default?: unknown;
  type?: string;
  format?: string;
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  additionalProperties?: Schema | boolean;
};
type Media = Record<string, { schema?: Schema }>;
type Operation = {
  operationId: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content?: Media };
  responses: Record<string, { content?: Media; headers?: Record<string, unknown> }>;
};
type Document = {
  openapi: string;
  servers?: { url: string }[];
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

/**
 * Routes that take no JWT (docs/http-conventions.md#routes-and-media-types: the three authentication
 * routes and the signed download; also the root, the health check and the magic-link page).
 */
const PUBLIC = [
  'get /',
  'get /health',
  'get /health/ready',
  'get /health/live',
  'post /auth/api/pre-auth-token',
  'post /auth/api/token',
  'post /auth/api/token/refresh',
  'get /auth/magic-link',
  'get /api/files/{id}/content',
  'get /calendar/{token}.ics',
];
/**
 * The verbs an operationId starts with (docs/http-conventions.md#generated-clients): a generated
 * client's function reads as what it does (`listShifts`, `bookShift`).
 */
const VERBS = [
  'accept',
  'add',
  'anonymise',
  'apply',
  'archive',
  'ask',
  'attach',
  'book',
  'cancel',
  'create',
  'decline',
  'delete',
  'detach',
  'download',
  'export',
  'get',
  'list',
  'log',
  'open',
  'ping',
  'propose',
  'record',
  'refresh',
  'remove',
  'replace',
  'retry',
  'revoke',
  'rotate',
  'take',
  'update',
  'upload',
  'validate',
  'withdraw',
];
/** Answers that are not JSON. */
const NOT_JSON: Record<string, string[]> = {
  'get /calendar/{token}.ics': ['text/calendar'],
  'get /metrics': ['text/plain'],
  'get /api/claims/export.csv': ['text/csv'],
  'get /api/reports/volunteer-hours': ['application/json', 'text/csv'],
  'get /auth/magic-link': ['text/html'],
  'get /api/files/{id}/content': ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'],
};

describe('OpenAPI document: every operation (issue 12, item 4)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let doc: Document;
  const ops: [string, Operation][] = [];

  beforeAll(async () => {
    env = await testEnvironment();
    app = await bootApi(env.config);
    doc = (await request(app.getHttpServer()).get('/api/docs-json').expect(200)).body as Document;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) ops.push([`${method} ${path}`, op]);
    }
  });

  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  const resolve = (schema: Schema | undefined): Schema | undefined =>
    schema?.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;

  /** Every place under `schema` (through refs, once each) typed a bare object: no properties, no allOf/oneOf/anyOf, no additionalProperties. */
  function bareObjects(schema: Schema | undefined, at: string, seen = new Set<string>()): string[] {
    if (!schema) return [];
    if (schema.$ref) {
      if (seen.has(schema.$ref)) return [];
      seen.add(schema.$ref);
      const target = resolve(schema);
      return target ? bareObjects(target, schema.$ref.split('/').pop()!, seen) : [`${at}: unresolved ${schema.$ref}`];
    }
    const found: string[] = [];
    const composed = [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
    const open = typeof schema.additionalProperties === 'object' || schema.additionalProperties === true;
    // `{ type: object, nullable: true, enum: [null] }` is the null alternative of a nullable record.
    if (schema.type === 'object' && !schema.properties && !composed.length && !open && !schema.enum) found.push(at);
    for (const [name, property] of Object.entries(schema.properties ?? {}))
      found.push(...bareObjects(property, `${at}.${name}`, seen));
    for (const part of composed) found.push(...bareObjects(part, at, seen));
    if (schema.items) found.push(...bareObjects(schema.items, `${at}[]`, seen));
    if (typeof schema.additionalProperties === 'object')
      found.push(...bareObjects(schema.additionalProperties, `${at}{}`, seen));
    return found;
  }

  it('is a valid OpenAPI 3.0 document naming its server', async () => {
    expect(doc.openapi).toMatch(/^3\.0\./);
    // openapi-backend validates the document against the OpenAPI 3.0 schema (strict: throws when invalid).
    await expect(
      new OpenAPIBackend({ definition: structuredClone(doc) as never, strict: true, validate: false }).init(),
    ).resolves.toBeDefined();
    expect(doc.servers).toEqual([expect.objectContaining({ url: env.config.http.publicUrl })]);
  });

  it('documents the interface routes it serves, and every controller route', () => {
    const keys = ops.map(([key]) => key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'post /auth/api/pre-auth-token',
        'post /auth/api/token',
        'post /auth/api/token/refresh',
        'post /auth/api/logout',
        'get /api/organisation',
        'get /api/organisation/detailed',
        'put /api/organisation',
        'get /api/organisation/history',
        'post /api/files',
        'get /api/files/{id}',
        'get /api/files/{id}/content',
        'get /api/users/me',
        'get /api/users/{id}',
        'get /health',
        'get /auth/magic-link',
      ]),
    );
    for (const [key, op] of ops) expect([key, op.tags?.length ? 'tagged' : 'untagged']).toEqual([key, 'tagged']);
  });

  it('requires the JWT everywhere but on the public routes, and names each operation’s permission', () => {
    expect(doc.security).toEqual([{ bearer: [] }]);
    for (const [key, op] of ops) {
      const security = op.security ?? doc.security;
      // GET /metrics takes the operator's METRICS_TOKEN, not a JWT (docs/metrics.md).
      const expected =
        key === 'get /metrics' ? [{ metrics_token: [] }] : PUBLIC.includes(key) ? [{}] : [{ bearer: [] }];
      expect([key, security]).toEqual([key, expected]);
      expect([key, op.description]).toEqual([key, expect.stringMatching(/Permission/)]);
    }
  });

  it('declares its success statuses with a typed body (none for a 204), and each error with the ErrorBody', () => {
    for (const [key, op] of ops) {
      // Mostly one; adding a rota contact has two (201 new, 200 already one: docs/rota-domain.md#contacts).
      const successes = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      expect([key, successes.length > 0]).toEqual([key, true]);
      for (const success of successes) {
        const response = op.responses[success]!;
        if (success === '204') {
          expect([key, response.content]).toEqual([key, undefined]);
        } else if (NOT_JSON[key]) {
          expect([key, Object.keys(response.content ?? {})]).toEqual([key, NOT_JSON[key]]);
        } else {
          expect([key, success, Object.keys(response.content ?? {})]).toEqual([key, success, ['application/json']]);
          const schema = resolve(response.content!['application/json']!.schema);
          expect([key, success, schema?.type, Object.keys(schema?.properties ?? {}).length > 0]).toEqual([
            key,
            success,
            'object',
            true,
          ]);
        }
      }
      const errors = Object.keys(op.responses).filter((s) => /^4/.test(s));
      // Any route can meet the two refusals from below the application; every route but the root
      // and the health routes (which read nothing of the request) has one of its own as well.
      expect([key, errors]).toEqual([key, expect.arrayContaining(['408', '431'])]);
      if (!/^get \/(health(\/\w+)?)?$/.test(key))
        expect([key, errors.filter((s) => s !== '408' && s !== '431')]).toEqual([
          key,
          expect.arrayContaining([expect.any(String)]),
        ]);
      // A JWT route can be refused its JWT; a path id can be too long for the router; a body can be too large or invalid.
      if (!PUBLIC.includes(key)) expect([key, errors]).toEqual([key, expect.arrayContaining(['401'])]);
      // A path id names nothing when unknown (404); a path date or token only has to fit the router (414).
      if (op.parameters?.some((p) => p.in === 'path'))
        expect([key, errors]).toEqual([key, expect.arrayContaining(['414'])]);
      if (op.parameters?.some((p) => p.in === 'path' && p.schema?.type === 'integer'))
        expect([key, errors]).toEqual([key, expect.arrayContaining(['404'])]);
      if (op.requestBody?.content?.['application/json'])
        expect([key, errors]).toEqual([key, expect.arrayContaining(['400', '413', '422'])]);
      for (const status of errors) {
        expect([key, status, op.responses[status]!.content?.['application/json']?.schema?.$ref]).toEqual([
          key,
          status,
          '#/components/schemas/ErrorBody',
        ]);
      }
      // Any route but the health routes answers 503 while a dependency is out (docs/http-conventions.md#dependency-outages).
      if (!op.tags?.includes('health'))
        expect([key, op.responses['503']?.headers]).toEqual([
          key,
          expect.objectContaining({ 'Retry-After': expect.anything() }),
        ]);
      if (errors.includes('429'))
        expect([key, op.responses['429']!.headers]).toEqual([
          key,
          expect.objectContaining({ 'Retry-After': expect.anything() }),
        ]);
    }
  });

  it('types every field of the bodies, parameters and responses: no bare `object`', () => {
    const bare = ops.flatMap(([key, op]) => [
      ...bareObjects(op.requestBody?.content?.['application/json']?.schema, `${key} body`),
      ...(op.parameters ?? []).flatMap((p) => bareObjects(p.schema, `${key} ${p.in} ${p.name}`)),
      ...Object.entries(op.responses).flatMap(([status, r]) =>
        Object.values(r.content ?? {}).flatMap((m) => bareObjects(m.schema, `${key} ${status}`)),
      ),
    ]);
    expect(bare).toEqual([]);
    for (const [key, op] of ops) {
      // Path parameters are ids, except the calendar feed's token (a secret string), the day view's date and a
      // webhook delivery's id (its webhook-id, `msg_…`: docs/webhooks.md#deliveries).
      const typeOf = (name: string) =>
        name === 'token' || name === 'deliveryId'
          ? { type: 'string' }
          : name === 'date'
            ? { type: 'string', format: 'date' }
            : { type: 'integer' };
      for (const p of op.parameters?.filter((q) => q.in === 'path') ?? []) {
        expect([key, p.name, { type: p.schema?.type, ...(p.schema?.format === 'date' && { format: 'date' }) }]).toEqual(
          [key, p.name, typeOf(p.name)],
        );
      }
    }
  });

  it('names every operation with its own short camelCase verb phrase (issue 31)', () => {
    const ids = ops.map(([, op]) => op.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const [key, { operationId: id }] of ops) {
      expect([key, id]).toEqual([key, expect.stringMatching(/^[a-z][a-zA-Z0-9]{2,39}$/)]);
      expect([key, id, id.includes('Controller'), VERBS.includes(id.match(/^[a-z]+/)![0])]).toEqual([
        key,
        id,
        false,
        true,
      ]);
    }
    const idOf = (key: string) => ops.find(([k]) => k === key)![1].operationId;
    expect(
      ['get /api/rota/shifts', 'post /api/rota/shifts', 'post /api/expenses', 'get /api/organisation'].map(idOf),
    ).toEqual(['listShifts', 'bookShift', 'createExpense', 'getOrganisation']);
  });

  it('names no component schema after a global of browsers or TypeScript (issue 31)', () => {
    const globals = typescriptGlobals();
    // What api.md names, and Image and Record, which the lib files declare too.
    for (const name of ['File', 'Blob', 'Date', 'Error', 'Event', 'Request', 'Response', 'Image', 'Record'])
      expect([name, globals.has(name)]).toEqual([name, true]);
    expect(Object.keys(doc.components.schemas).filter((name) => globals.has(name))).toEqual([]);
  });

  it('declares no default in a request body, which a generated client would make required (issue 31)', () => {
    // openapi-typescript (defaultNonNullable, its default) types a component schema's field that
    // declares a default as always present; request bodies say theirs in the description.
    const declared: string[] = [];
    const visit = (schema: Schema | undefined, at: string, seen: Set<string>): void => {
      if (!schema) return;
      if (schema.$ref) {
        if (seen.has(schema.$ref)) return;
        seen.add(schema.$ref);
        return visit(resolve(schema), schema.$ref.split('/').pop()!, seen);
      }
      if (schema.default !== undefined) declared.push(at);
      for (const [name, property] of Object.entries(schema.properties ?? {})) visit(property, `${at}.${name}`, seen);
      for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])])
        visit(part, at, seen);
      visit(schema.items, `${at}[]`, seen);
      if (typeof schema.additionalProperties === 'object') visit(schema.additionalProperties, `${at}{}`, seen);
    };
    for (const [key, op] of ops)
      for (const media of Object.values(op.requestBody?.content ?? {})) visit(media.schema, `${key} body`, new Set());
    expect(declared).toEqual([]);
  });

  it('declares X-Request-Id on every answer (issue 25, item 7)', () => {
    for (const [key, op] of ops)
      for (const [status, response] of Object.entries(op.responses))
        expect([key, status, response.headers?.['X-Request-Id']]).toEqual([
          key,
          status,
          { $ref: '#/components/headers/X-Request-Id' },
        ]);
  });

  it('writes nullable records as strict OpenAPI 3.0 tools read them (issue 25, item 7)', async () => {
    // `nullable` beside no `type` (as beside `allOf: [{ $ref }]`) widens nothing in OpenAPI 3.0.
    const misread: string[] = [];
    const visit = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${at}/${i}`));
      if (!node || typeof node !== 'object') return;
      const schema = node as Schema;
      if (schema.nullable === true && (!schema.type || schema.allOf || schema.$ref)) misread.push(at);
      for (const [k, v] of Object.entries(node)) if (k !== 'example' && k !== 'examples') visit(v, `${at}/${k}`);
    };
    visit(doc, '');
    expect(misread).toEqual([]);
    const shift = doc.components.schemas.Shift!.properties!.recurrence_pattern!;
    expect(shift.oneOf).toEqual([
      { $ref: '#/components/schemas/RecurrencePattern' },
      { type: 'object', nullable: true, enum: [null] },
    ]);
    // openapi-backend as it comes (its own Ajv, nothing rewritten) takes null for each such record
    // and refuses a value of the wrong type: an answer holding the document's own property schemas.
    const nullable = {
      recurrence_pattern: shift,
      logo: doc.components.schemas.OrganisationDetailed!.properties!.logo!,
      rate: doc.components.schemas.Expense!.properties!.rate!,
      role: doc.components.schemas.Claim!.properties!.role!,
      category: doc.components.schemas.ShiftPattern!.properties!.category!,
      repeating_shift: doc.components.schemas.DayViewShift!.properties!.repeating_shift!,
    };
    const schema = { type: 'object', properties: nullable };
    const api = new OpenAPIBackend({
      ajvOpts: { logger: false }, // its warnings of formats it does not know
      // A copy: openapi-backend dereferences the definition in place.
      definition: structuredClone({
        openapi: doc.openapi,
        info: { title: 'nullable records', version: '1' },
        paths: {
          '/x': {
            get: {
              operationId: 'x',
              responses: { 200: { description: 'x', content: { 'application/json': { schema } } } },
            },
          },
        },
        components: doc.components,
      }) as never,
    });
    await api.init();
    const allNull = Object.fromEntries(Object.keys(nullable).map((name) => [name, null]));
    expect(api.validateResponse(allNull, 'x').errors ?? []).toEqual([]);
    for (const name of Object.keys(nullable))
      expect([name, (api.validateResponse({ ...allNull, [name]: 'a string' }, 'x').errors ?? []).length > 0]).toEqual([
        name,
        true,
      ]);
  });

  it('documents the payload of every webhook event type (docs/webhooks.md#event-types), each in one schema', () => {
    // The event types of the integrations note's table, ping included.
    const types = [
      'shift.booked',
      'shift.changed',
      'shift.cancelled',
      'repeating_shift.started',
      'repeating_shift.ended',
      'rota.created',
      'rota.changed',
      'rota.archived',
      'claim.created',
      'claim.approved',
      'claim.rejected',
      'claim.submitted',
      'expense.created',
      'expense.updated',
      'expense.deleted',
      'attendance.recorded',
      'user.anonymised',
      'ping',
    ];
    const payloads = Object.entries(doc.components.schemas).filter(([name]) => /^Webhook\w+Event$/.test(name));
    const documented = payloads.flatMap(([, schema]) => (schema.properties?.type?.enum ?? []) as string[]);
    expect([...documented].sort()).toEqual([...types].sort());
    // The flag a cancelled shift or deleted expense carries is in the payload's schema, beside the record's fields.
    const flag = (event: string, name: string) => {
      const data = doc.components.schemas[event]!.properties!.data!.$ref!.replace('#/components/schemas/', '');
      return doc.components.schemas[data]!.properties![name];
    };
    expect(flag('WebhookShiftEvent', 'cancelled')).toMatchObject({ type: 'boolean', enum: [true] });
    expect(flag('WebhookShiftEvent', 'start_datetime')).toBeDefined();
    expect(flag('WebhookExpenseEvent', 'deleted')).toMatchObject({ type: 'boolean', enum: [true] });
    expect(flag('WebhookExpenseEvent', 'amount')).toBeDefined();
  });

  it('answers the records in their envelopes: organisation and files in `data`, history in the pagination envelope', () => {
    const success = (key: string, status = '200') =>
      ops.find(([k]) => k === key)![1].responses[status]!.content!['application/json']!.schema!;
    expect(success('get /api/organisation').properties!.data!.$ref).toBe('#/components/schemas/OrganisationBasic');
    expect(success('get /api/organisation/detailed').properties!.data!.$ref).toBe(
      '#/components/schemas/OrganisationDetailed',
    );
    expect(success('put /api/organisation').properties!.data!.$ref).toBe('#/components/schemas/OrganisationDetailed');
    expect(success('post /api/files', '201').properties!.data!.$ref).toBe('#/components/schemas/UploadedFile');
    expect(success('get /api/files/{id}').properties!.data!.$ref).toBe('#/components/schemas/UploadedFile');
    expect(success('get /api/users/me').properties!.data!.$ref).toBe('#/components/schemas/CurrentUser');
    expect(success('get /api/organisation/history').properties!.data!.items!.$ref).toBe(
      '#/components/schemas/OrganisationChange',
    );
    expect(success('post /auth/api/pre-auth-token').$ref).toBe('#/components/schemas/PreAuthToken');
    expect(success('post /auth/api/token').$ref).toBe('#/components/schemas/JsonWebToken');

    const schemas = doc.components.schemas;
    // The interface's Image (docs/http-conventions.md#files-and-images), as the detailed view embeds a
    // logo; secrets only as flags, never readable.
    expect(Object.keys(schemas.ImageFile!.properties!).sort()).toEqual([
      'description',
      'file_size',
      'id',
      'mime',
      'original_name',
      'thumbnails',
    ]);
    const detailed = schemas.OrganisationDetailed!.properties!;
    expect(detailed.logo!.oneOf![0]!.$ref).toBe('#/components/schemas/ImageFile');
    for (const secret of [
      'idp_client_secret',
      'helpdesk_token',
      'lms_a_token',
      'lms_a_auth_token',
      'access_password',
    ]) {
      expect([secret, secret in detailed, `${secret}_set` in detailed]).toEqual([secret, false, true]);
    }
    // Every field of the basic view is in every answer; the others depend on the caller's permissions.
    expect(schemas.OrganisationBasic!.required).toEqual(
      expect.arrayContaining(['name', 'slug', 'timezone', 'sso_enabled']),
    );
    expect(schemas.OrganisationDetailed!.required).not.toEqual(expect.arrayContaining(['dpo_email']));
    expect(schemas.PreAuthToken!.properties!.two_factor!.enum).toEqual([
      'email',
      'sms',
      'auth_app',
      'magic_link',
      null,
    ]);
  });
});

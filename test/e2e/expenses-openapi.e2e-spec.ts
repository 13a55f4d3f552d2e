import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone } from '../support/test-app.js';

/**
 * Issue 11, item 7, for expenses and claims: the served OpenAPI document says what each operation
 * answers. Every operation has a schema for its success status (none for a 204) and documents its
 * error statuses with the error body (docs/http-conventions.md#errors); no schema it reaches has a
 * field typed a bare `object`. Issue 12 generalises this to every operation.
 */

type Schema = {
  $ref?: string;
  type?: string;
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  additionalProperties?: Schema | boolean;
  enum?: unknown[];
};
type Media = Record<string, { schema?: Schema }>;
type Operation = {
  description?: string;
  parameters?: { name: string; in: string; schema?: Schema; style?: string; explode?: boolean }[];
  requestBody?: { content?: Media };
  responses: Record<string, { content?: Media; headers?: Record<string, unknown> }>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

/** The interface's expenses and claims routes (docs/expense-rules.md), with the export addition. */
const OPERATIONS = [
  'get /api/expenses/types',
  'post /api/expenses/types',
  'put /api/expenses/types/{id}',
  'delete /api/expenses/types/{id}',
  'get /api/expenses/rates',
  'post /api/expenses/rates',
  'get /api/expenses/rates/{id}',
  'put /api/expenses/rates/{id}',
  'delete /api/expenses/rates/{id}',
  'get /api/users/{userId}/expenses/authorisers',
  'get /api/users/{userId}/expenses',
  'post /api/expenses',
  'get /api/users/{userId}/expenses/{id}',
  'put /api/users/{userId}/expenses/{id}',
  'delete /api/users/{userId}/expenses/{id}',
  'get /api/users/{userId}/expenses/{id}/attachments',
  'get /api/users/{userId}/expenses/{id}/attachments/{fileId}',
  'put /api/users/{userId}/expenses/{id}/attachments/{fileId}',
  'delete /api/users/{userId}/expenses/{id}/attachments/{fileId}',
  'get /api/claims',
  'get /api/claims/export.csv',
  'post /api/claims',
  'get /api/users/{userId}/claims',
  'get /api/users/{userId}/claims/{id}',
  'put /api/users/{userId}/claims/{id}',
  // A claim's history (docs/expense-rules.md#claim-history; issue 16): an addition.
  'get /api/users/{userId}/claims/{id}/history',
];
const IN_SCOPE = /^\/api\/(expenses|claims|users\/\{userId\}\/(expenses|claims))(\/|$)/;

/** What each list answers in its pagination envelope (docs/http-conventions.md#envelopes, #pagination). */
const LISTS: Record<string, string> = {
  'get /api/expenses/types': 'ExpenseType',
  'get /api/expenses/rates': 'ExpenseRate',
  'get /api/users/{userId}/expenses/authorisers': 'UserBase',
  'get /api/users/{userId}/expenses': 'Expense',
  'get /api/users/{userId}/expenses/{id}/attachments': 'Attachment',
  'get /api/claims': 'Claim',
  'get /api/users/{userId}/claims': 'Claim',
  'get /api/users/{userId}/claims/{id}/history': 'HistoryEntry',
};

/** The interface's include lists (docs/http-conventions.md#includes). */
const EXPENSE_INCLUDES = ['user', 'type', 'rate', 'attachments', 'role', 'role.roleProfile'];
const CLAIM_INCLUDES = ['user', 'expenses', 'assignedTo', 'approvedBy', 'role', 'role.roleProfile'];

describe('OpenAPI document: expenses and claims (issue 11, item 7)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let doc: Document;
  const ops: [string, Operation][] = [];

  beforeAll(async () => {
    env = await testEnvironment();
    app = await bootStandalone(env.config);
    doc = (await request(app.getHttpServer()).get('/api/docs-json').expect(200)).body as Document;
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (!IN_SCOPE.test(path)) continue;
      for (const [method, op] of Object.entries(methods))
        if (['get', 'post', 'put', 'delete'].includes(method)) ops.push([`${method} ${path}`, op]);
    }
  });

  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  const resolve = (schema: Schema | undefined): Schema | undefined =>
    schema?.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;

  /**
   * Every place under `schema` (through refs, once each) typed a bare object: no properties, no
   * allOf/oneOf/anyOf, no additionalProperties.
   */
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
    // `{ type: object, nullable: true, enum: [null] }` is the null alternative of a nullable record
    // (libs/platform/src/http/openapi-document.ts), not a bare object.
    const onlyNull = schema.enum !== undefined && schema.enum.every((v) => v === null);
    if (schema.type === 'object' && !schema.properties && !composed.length && !open && !onlyNull) found.push(at);
    for (const [name, property] of Object.entries(schema.properties ?? {}))
      found.push(...bareObjects(property, `${at}.${name}`, seen));
    for (const part of composed) found.push(...bareObjects(part, at, seen));
    if (schema.items) found.push(...bareObjects(schema.items, `${at}[]`, seen));
    if (typeof schema.additionalProperties === 'object')
      found.push(...bareObjects(schema.additionalProperties, `${at}{}`, seen));
    return found;
  }

  const successOf = (key: string) => (key.startsWith('post ') ? '201' : key.startsWith('delete ') ? '204' : '200');
  const jsonSchema = (response: { content?: Media } | undefined) => response?.content?.['application/json']?.schema;

  it('documents every expenses and claims operation of the interface, and no other', () => {
    expect(ops.map(([key]) => key).sort()).toEqual([...OPERATIONS].sort());
  });

  it('gives each operation a response schema for its success status (none for a 204)', () => {
    for (const [key, op] of ops) {
      const success = successOf(key);
      expect([key, Object.keys(op.responses).filter((s) => s.startsWith('2'))]).toEqual([key, [success]]);
      const response = op.responses[success]!;
      if (success === '204') {
        expect([key, response.content]).toEqual([key, undefined]);
      } else if (key === 'get /api/claims/export.csv') {
        expect(response.content?.['text/csv']?.schema?.type).toBe('string');
      } else {
        const schema = resolve(jsonSchema(response));
        expect([key, schema?.type, Object.keys(schema?.properties ?? {}).length > 0]).toEqual([key, 'object', true]);
      }
    }
  });

  it('answers lists in the pagination envelope of their item, counts as strings and links as absolute URLs', () => {
    for (const [key, item] of Object.entries(LISTS)) {
      const schema = jsonSchema(ops.find(([k]) => k === key)![1].responses['200']) as Schema;
      expect([key, schema.required, schema.properties?.data?.items?.$ref]).toEqual([
        key,
        ['data', 'meta'],
        `#/components/schemas/${item}`,
      ]);
      const pagination = resolve(resolve(schema.properties!.meta)!.properties!.pagination)!;
      expect(pagination.required).toEqual(['total', 'count', 'per_page', 'current_page', 'total_pages', 'links']);
      for (const count of ['total', 'count', 'per_page', 'current_page', 'total_pages'])
        expect(pagination.properties![count]!.type).toBe('string');
      const links = resolve(pagination.properties!.links)!;
      expect(links.required ?? []).toEqual([]);
      expect([links.properties!.next!.format, links.properties!.previous!.format]).toEqual(['uri', 'uri']);
    }
  });

  it('documents the error statuses each operation can answer, all with the one error body', () => {
    const errorBody = doc.components.schemas.ErrorBody!;
    expect(errorBody.required).toEqual(['message', 'status_code']);
    expect(Object.keys(errorBody.properties!).sort()).toEqual(['errors', 'message', 'status_code']);
    for (const [key, op] of ops) {
      // 400/406: the Accept rule; 401: the JWT; 403: each needs a permission, or the hierarchy rule refuses another user's records.
      const expected = ['400', '401', '403', '406'];
      if (key.includes('{')) expected.push('404');
      if (op.requestBody) expected.push('413', '422');
      if (op.parameters?.some((p) => p.in === 'query')) expected.push('422');
      if (key.startsWith('put ') || key.startsWith('delete ')) expected.push('409');
      const documented = Object.keys(op.responses).filter((s) => /^[45]/.test(s));
      expect([key, [...new Set(expected)].filter((s) => !documented.includes(s))]).toEqual([key, []]);
      for (const status of documented) {
        expect([key, status, Object.keys(op.responses[status]!.content ?? {})]).toEqual([
          key,
          status,
          ['application/json'],
        ]);
        expect([key, status, jsonSchema(op.responses[status])?.$ref]).toEqual([
          key,
          status,
          '#/components/schemas/ErrorBody',
        ]);
      }
    }
  });

  it('types every field of the bodies and responses: no bare `object`', () => {
    const bare = ops.flatMap(([key, op]) => [
      ...bareObjects(op.requestBody?.content?.['application/json']?.schema, `${key} body`),
      ...Object.entries(op.responses).flatMap(([status, r]) => bareObjects(jsonSchema(r), `${key} ${status}`)),
    ]);
    expect(bare).toEqual([]);
  });

  it('declares path ids as integers and each list’s query parameters with their allowed values', () => {
    for (const [key, op] of ops) {
      for (const p of op.parameters?.filter((q) => q.in === 'path') ?? [])
        expect([key, p.name, p.schema?.type]).toEqual([key, p.name, 'integer']);
    }
    const params = (key: string) =>
      Object.fromEntries(
        (ops.find(([k]) => k === key)![1].parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p]),
      );
    for (const key of Object.keys(LISTS))
      expect([key, Object.keys(params(key))]).toEqual([key, expect.arrayContaining(['page', 'per_page', 'limit'])]);

    const expenses = params('get /api/users/{userId}/expenses');
    expect(expenses.s!.schema!.enum).toEqual(['date']);
    expect(expenses.o!.schema!.enum).toEqual(['a', 'd', 'asc', 'desc']);
    expect(expenses.include!.schema!.items!.enum).toEqual(EXPENSE_INCLUDES);
    expect([expenses.include!.style, expenses.include!.explode]).toEqual(['form', false]);
    expect(expenses.claimed!.schema!.enum).toEqual(['true', 'false', '1', '0']);
    expect(params('get /api/users/{userId}/expenses/{id}').include!.schema!.items!.enum).toEqual(EXPENSE_INCLUDES);

    const managed = params('get /api/claims');
    expect(managed.s!.schema!.enum).toEqual([
      'created_at',
      'amount',
      'approved_at',
      'assignedTo',
      'authorised_user_id',
      'submitted_date',
      'user',
    ]);
    expect(managed.include!.schema!.items!.enum).toEqual(CLAIM_INCLUDES);
    expect(Object.keys(managed)).toEqual(
      expect.arrayContaining(['approved', 'submitted', 'user', 'assignee', 'from', 'to']),
    );
    const ofUser = params('get /api/users/{userId}/claims');
    expect(Object.keys(ofUser)).toEqual(expect.arrayContaining(['submitted', 'from', 'to', 'o', 'include']));
    expect([ofUser.from!.schema!.format, ofUser.to!.schema!.format]).toEqual(['date', 'date']);
    expect(params('get /api/users/{userId}/claims/{id}').include!.schema!.items!.enum).toEqual(CLAIM_INCLUDES);
  });

  it('gives the records the fields and formats the service sends', () => {
    const props = (name: string) => doc.components.schemas[name]!.properties!;
    const formats = (name: string) => Object.fromEntries(Object.entries(props(name)).map(([k, v]) => [k, v.format]));
    expect(formats('Expense')).toMatchObject({
      date: 'date',
      submitted: 'date',
      created_at: 'date-time',
      updated_at: 'date-time',
    });
    expect(formats('Claim')).toMatchObject({
      approved_at: 'date-time',
      submitted_at: 'date-time',
      created_at: 'date-time',
      updated_at: 'date-time',
    });
    expect(formats('ExpenseRate')).toMatchObject({ start_date: 'date', end_date: 'date' });
    // A rate's timestamps are `YYYY-MM-DD HH:MM:SS`, not ISO date-times (docs/expense-rules.md#record-shapes).
    expect(formats('ExpenseRate').created_at).toBeUndefined();
    // Includes are optional: present only when asked for.
    expect(doc.components.schemas.Expense!.required).not.toEqual(expect.arrayContaining(['user']));
    expect(Object.keys(props('Expense'))).toEqual(
      expect.arrayContaining(['user', 'type', 'rate', 'attachments', 'role']),
    );
    expect(Object.keys(props('Claim'))).toEqual(
      expect.arrayContaining(['user', 'assignedTo', 'approvedBy', 'expenses', 'role']),
    );
    expect(props('Claim').expenses!.items!.$ref).toBe('#/components/schemas/Expense');
    expect(Object.keys(props('Attachment')).sort()).toEqual([
      'description',
      'file_size',
      'id',
      'mime',
      'original_name',
      'signed_url',
      'thumbnails',
    ]);
    expect(ops.find(([k]) => k === 'post /api/claims')![1].responses['201']!.headers).toHaveProperty('Location');
  });
});

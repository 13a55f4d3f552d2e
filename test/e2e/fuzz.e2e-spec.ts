import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import fc from 'fast-check';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { PERMISSIONS } from '#app/identity';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, organisationFile, provision, subscribeWebhooks } from '../support/test-app.js';
import { eventCount } from '../support/nothing-written.js';

/**
 * Issue 10's fuzz test: generated bad bodies, queries and path ids sent to every operation of the
 * served OpenAPI document, on the service with every optional feature on. For every answer: no 5xx; every refusal has the error body
 * (docs/http-conventions.md#errors) and leaves the event log as it was. FUZZ_SEED replays a run,
 * FUZZ_RUNS sets the runs an operation.
 */

interface Operation {
  readonly method: 'get' | 'post' | 'put' | 'delete';
  readonly path: string;
  readonly bodyFields: readonly string[];
  readonly multipart: boolean;
}

interface FuzzRequest {
  readonly url: string;
  readonly query: Record<string, string>;
  readonly body?:
    | { readonly kind: 'json'; readonly value: unknown }
    | { readonly kind: 'raw'; readonly type: string; readonly text: string };
  readonly authenticated: boolean;
}

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
/** Runs for an operation with a body, and for one without (fewer inputs to vary). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const RUNS_WITHOUT_BODY = Math.ceil(RUNS / 4);

/** Strings a database or a parser may choke on: NUL, lone surrogates, dates that do not exist. */
const nastyConstant = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\ud83d\ude00',
  '',
  ' ',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  "'; DROP TABLE events; --",
  '%00',
  '../../etc/passwd',
  '2026-02-30',
  '2026-13-01',
  '0000-00-00',
  '2026-02-29',
  '9999-12-31',
  '2026-01-01T25:00:00Z',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  'x'.repeat(3000),
);
const nastyString = fc.oneof(
  { weight: 3, arbitrary: nastyConstant },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);

/** Values of every JSON type, weighted to the shapes validation must refuse: null, arrays for objects, bad references. */
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 3, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, -(2 ** 63), 1.5) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      { id: null },
      { id: -1 },
      { id: '1' },
      { id: 1.5 },
      { id: 2 ** 63 },
      [{ id: 1 }],
      {},
      [],
      { id: 1, extra: true },
    ),
  },
  { weight: 1, arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** A path id that is not a valid id of the caller's organisation, or one that is. */
function pathValue(validIds: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...validIds) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '0',
        '-1',
        '1.5',
        '1e3',
        '0x10',
        'abc',
        '99999999999999999999',
        '9223372036854775808',
        '%00',
        '%E0%A4%A',
        '%2e%2e',
        'null',
        ' 1',
        '١',
      ),
    },
    { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 ** 40 }).map(String) },
  );
}

const queryKeys = [
  'page',
  'per_page',
  'limit',
  's',
  'o',
  'include',
  'q',
  'from',
  'to',
  'archived',
  'status',
  'variant',
  'expires',
  'signature',
  'user_id',
];
const queryArb = fc.dictionary(
  fc.oneof(fc.constantFrom(...queryKeys), fc.string({ maxLength: 10 })),
  fc.oneof(
    nastyString,
    fc.integer().map(String),
    fc.constantFrom('true', 'false', 'yes', '2', 'asc', 'desc', 'sideways', 'id', 'name', 'type,rate', 'nope'),
  ),
  { maxKeys: 4 },
);

/**
 * A valid body with one or two fields replaced by nasty values, one dropped, or one unknown field
 * added: a refusal must come from the one bad field, so the rest of the body has to be good enough
 * to reach the handler and the database.
 */
function nearValid(seed: Record<string, unknown>, fields: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const names = [...new Set([...Object.keys(seed), ...fields])];
  if (!names.length) return fc.constant(seed);
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(
          fc.subarray(names, { minLength: 1, maxLength: Math.min(2, names.length) }),
          fc.array(nastyValue, { minLength: 2, maxLength: 2 }),
        )
        .map(([keys, values]) => ({ ...seed, ...Object.fromEntries(keys.map((k, i) => [k, values[i]])) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...names)
        .map((drop) => Object.fromEntries(Object.entries(seed).filter(([k]) => k !== drop))),
    },
    { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 12 }), nastyValue).map(([k, v]) => ({ ...seed, [k]: v })) },
  );
}

function bodyArb(op: Operation, seed: Record<string, unknown>): fc.Arbitrary<FuzzRequest['body']> {
  return fc.oneof(
    { weight: 8, arbitrary: nearValid(seed, op.bodyFields).map((value) => ({ kind: 'json' as const, value })) },
    {
      weight: 2,
      arbitrary: fc
        .dictionary(fc.string({ maxLength: 12 }), nastyValue, { maxKeys: 6 })
        .map((value) => ({ kind: 'json' as const, value })),
    },
    { weight: 1, arbitrary: nastyValue.map((value) => ({ kind: 'json' as const, value })) },
    {
      weight: 1,
      arbitrary: fc
        .record({
          type: fc.constantFrom(
            'application/json',
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data',
            'multipart/form-data; boundary=x',
            'application/xml',
          ),
          text: fc.oneof(
            fc.string({ maxLength: 60 }),
            fc.constantFrom(
              '{',
              '{"a":',
              '[[[[',
              '{"__proto__":{"x":1}}',
              '{"constructor":{"prototype":{}}}',
              '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc',
            ),
          ),
        })
        .map(({ type, text }) => ({ kind: 'raw' as const, type, text })),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

describe('fuzz: every operation of the OpenAPI document (issue 10)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let token: string;
  let operations: Operation[] = [];
  const ids: Record<string, string[]> = {};
  const seeds: Record<string, Record<string, unknown>> = {};
  /** Valid ids for a path parameter, by the collection it follows (`/rates/{id}`: rate ids). */
  const idsFor = (path: string, param: string): string[] => {
    const collection = path.split(`/{${param}}`)[0]!.split('/').pop()!;
    return ids[collection === 'attachments' || collection === 'files' ? 'any' : collection] ?? ids.any!;
  };
  const outcomes = new Map<string, number>();
  const operationOutcomes = new Map<string, number>();
  let sent = 0;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    // As an operator runs it, every optional feature on (test-config.ts).
    env = await testEnvironment(
      { AUTH_RATE_LIMIT: '10000', AUTH_RATE_LIMIT_PER_ADDRESS: '100000' },
      { operatorFeatures: true },
    );
    app = await bootStandalone(env.config);
    const fuzz = await provision(
      app,
      organisationFile('fuzz', [
        { key: 'admin', email: 'admin@fuzz.example', permissions: [...PERMISSIONS] },
        { key: 'member', email: 'member@fuzz.example', permissions: ['create-expenses'] },
      ]),
    );
    const other = await provision(
      app,
      organisationFile('other', [{ key: 'someone', email: 'someone@other.example', permissions: [...PERMISSIONS] }]),
    );
    token = await logIn(app, 'admin@fuzz.example');
    await subscribeWebhooks(app, token, env.webhookReceiver);
    const as = { authorization: `Bearer ${token}` };
    // A few real records, so generated requests also reach existing ids with bad bodies.
    const type = (await http().post('/api/expenses/types').set(as).send({ name: 'Travel', position: 1 }).expect(201))
      .body;
    const rate = (await http().post('/api/expenses/rates').set(as).send({ short_name: 'Car', rate: 0.45 }).expect(201))
      .body;
    const expense = (
      await http()
        .post('/api/expenses')
        .set(as)
        .send({ amount: 12.5, date: new Date().toISOString().slice(0, 10), type: { id: type.id } })
        .expect(201)
    ).body;
    Object.assign(ids, {
      types: [String(type.id)],
      rates: [String(rate.id)],
      expenses: [String(expense.id)],
      users: [String(fuzz.users.admin), String(fuzz.users.member), String(other.users.someone)],
    });
    ids.any = [...new Set(Object.values(ids).flat())];
    // A valid body for each operation that takes one; nearValid() spoils one field at a time.
    const today = new Date().toISOString().slice(0, 10);
    Object.assign(seeds, {
      'post /auth/api/pre-auth-token': { email: 'member@fuzz.example', password: 'not the password' },
      'post /auth/api/token': { token: 'not-a-pre-auth-token', key: '123456', minimal: true },
      'post /auth/api/token/refresh': { token: 'not.a.jwt', minimal: false },
      'put /api/organisation': { name: 'Fuzz volunteers', expenses_max_age: '3', header_logo: null },
      'post /api/expenses/types': { name: 'Parking', position: 2 },
      'put /api/expenses/types/{id}': { name: 'Parking', position: 3 },
      'post /api/expenses/rates': {
        short_name: 'Bike',
        rate: 0.2,
        passenger_rate: 0.05,
        start_date: '2026-01-01',
        end_date: null,
        max_miles: 100,
        order_id: 1,
        description: 'x',
      },
      'put /api/expenses/rates/{id}': {
        short_name: 'Bike',
        rate: 0.25,
        start_date: '2026-01-01',
        end_date: '2027-01-01',
      },
      'post /api/expenses': {
        amount: 3.5,
        description: 'Bus',
        date: today,
        submitted: null,
        miles: null,
        passengers: null,
        type: { id: type.id },
        rate: null,
        role: null,
      },
      'put /api/users/{userId}/expenses/{id}': {
        amount: 4,
        description: 'Bus',
        date: today,
        type: { id: type.id },
        rate: { id: rate.id },
        miles: 3,
        passengers: 0,
      },
      'post /api/claims': { assignedTo: { id: fuzz.users.member }, notes: 'x', expenses: [{ id: expense.id }] },
      'put /api/users/{userId}/claims/{id}': {
        notes: 'x',
        approved: true,
        approval_note: null,
        submitted: false,
        submitted_date: '2026-01-01T10:00:00Z',
      },
    });

    const doc = (await http().get('/api/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> } }>>;
      components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> };
    };
    const schemas = doc.components?.schemas ?? {};
    const fieldsOf = (schema: unknown): string[] => {
      const s = schema as { $ref?: string; properties?: Record<string, unknown> } | undefined;
      if (s?.$ref) return Object.keys(schemas[s.$ref.split('/').pop()!]?.properties ?? {});
      return Object.keys(s?.properties ?? {});
    };
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (!['get', 'post', 'put', 'delete'].includes(method)) continue;
        const content = op.requestBody?.content ?? {};
        operations.push({
          method: method as Operation['method'],
          path,
          multipart: 'multipart/form-data' in content,
          bodyFields: fieldsOf(content['application/json']?.schema),
        });
      }
    }
    // Deletions last, so the records the other operations aim at still exist while they run.
    const rank = (op: Operation) => `${op.method === 'delete' ? 1 : 0} ${op.path} ${op.method}`;
    operations = operations.sort((a, b) => rank(a).localeCompare(rank(b)));
  }, 120_000);

  afterAll(async () => {
    if (sent) {
      const table = [...outcomes]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([status, n]) => `  ${status}: ${n}`)
        .join('\n');
      process.stderr.write(`\n[fuzz] seed ${SEED}, ${operations.length} operations, ${sent} requests\n${table}\n`);
      // FUZZ_VERBOSE=1: the same table for each operation, to see what a run reached.
      if (process.env.FUZZ_VERBOSE)
        process.stderr.write(
          [...operationOutcomes]
            .sort()
            .map(([k, n]) => `  ${k}: ${n}`)
            .join('\n') + '\n',
        );
    }
    await app?.close();
    await env?.cleanup();
  });

  const events = () => eventCount(app.get(DataSource));

  async function send(op: Operation, req: FuzzRequest) {
    let r = http()[op.method](req.url).query(req.query);
    // Logging out would end the session every other request uses.
    if (req.authenticated && !op.path.endsWith('/logout')) r = r.set('authorization', `Bearer ${token}`);
    if (req.body?.kind === 'json') r = r.set('content-type', 'application/json').send(JSON.stringify(req.body.value));
    else if (req.body?.kind === 'raw') r = r.set('content-type', req.body.type).send(req.body.text);
    return r;
  }

  it('answers no 5xx, refuses with the one error body and changes nothing on a refusal', async () => {
    expect(operations.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const op of operations) {
      const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const arb = fc
        .record({
          values: fc.tuple(...params.map((p) => pathValue(idsFor(op.path, p)))),
          query: queryArb,
          body:
            op.method === 'get' || op.method === 'delete'
              ? fc.constant(undefined)
              : bodyArb(op, seeds[`${op.method} ${op.path}`] ?? {}),
          authenticated: fc.oneof(
            { weight: 6, arbitrary: fc.constant(true) },
            { weight: 1, arbitrary: fc.constant(false) },
          ),
        })
        .map(({ values, query, body, authenticated }): FuzzRequest => ({
          url: params.reduce((url, p, i) => url.replace(`{${p}}`, values[i]!), op.path),
          query,
          body,
          authenticated,
        }));
      const details = await fc.check(
        fc.asyncProperty(arb, async (req) => {
          const before = await events();
          const res = await send(op, req);
          sent++;
          const key = `${res.status}`;
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
          const perOp = `${op.method.toUpperCase()} ${op.path} ${res.status}`;
          operationOutcomes.set(perOp, (operationOutcomes.get(perOp) ?? 0) + 1);
          const where = `${op.method.toUpperCase()} ${op.path} as ${req.url}`;
          expect({ where, status: res.status < 500 ? 'below 500' : res.status }).toEqual({
            where,
            status: 'below 500',
          });
          if (res.status >= 400) {
            expect(res.body).toEqual(expect.objectContaining({ message: expect.any(String), status_code: res.status }));
            if (res.body.errors !== undefined) {
              for (const messages of Object.values(res.body.errors as Record<string, unknown>))
                expect(messages).toEqual(expect.arrayContaining([expect.any(String)]));
            }
            expect({ where, events: await events() }).toEqual({ where, events: before });
          }
        }),
        {
          seed: SEED,
          numRuns: op.method === 'post' || op.method === 'put' ? RUNS : RUNS_WITHOUT_BODY,
          endOnFailure: true,
        },
      );
      // Every operation runs; the failures of all of them are reported together.
      if (details.failed) {
        const example = JSON.stringify(details.counterexample?.[0]);
        const trace = String(details.errorInstance).split('\n').slice(0, 12).join('\n  ');
        failures.push(`${op.method.toUpperCase()} ${op.path}: ${example}\n  ${trace}`);
      }
    }
    expect(failures).toEqual([]);
    // Every operation of the document in one test: it grows with the document (about 60 s embedded
    // on a loaded two-core machine at 71 operations), so it gets its own limit.
  }, 240_000);
});

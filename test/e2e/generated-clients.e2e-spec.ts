import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { bootStandalone, logIn, organisationFile, provision, TEST_PASSWORD, userFile } from '../support/test-app.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';

const run = promisify(execFile);
const bin = (path: string) => join(process.cwd(), 'node_modules', path);

/**
 * What an integrator does first (api.md: "a generated client compiles as generated";
 * docs/http-conventions.md#generated-clients): generate a client from the served document with
 * openapi-typescript and with orval, each with its defaults, compile it under strict tsc, and call
 * the service through it. The usage file books and moves a shift and creates a rota and an expense
 * with only their required fields, so a request field the client made required fails the compile;
 * orval's client does not compile when a schema shadows a global type (`File`); the functions are
 * named by the operationIds (`bookShift`, not `shiftsControllerCreate`). Tools and compiler run as
 * child processes, as an integrator runs them, in a temporary folder; none of them calls out
 * (checked once with strace).
 */
describe('generated clients (issue 31)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let base = '';
  let token = '';
  let dir = '';
  const email = 'ann@riverside.example';

  /** Runs node on `args` in the temporary folder; a failure reports the tool's whole output. */
  async function node(args: string[]): Promise<string> {
    try {
      return (
        await run(process.execPath, args, { cwd: dir, maxBuffer: 64 << 20, env: { PATH: process.env.PATH, HOME: dir } })
      ).stdout;
    } catch (err) {
      const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
      throw new Error(`node ${args.join(' ')} failed:\n${stdout}\n${stderr}`);
    }
  }
  const write = (path: string, text: string) => writeFileSync(join(dir, path), text);

  beforeAll(async () => {
    env = await testEnvironment();
    app = await bootStandalone(env.config);
    await provision(app, organisationFile('riverside', [userFile('ann', [], ['north-shop'])]));
    token = await logIn(app, email);
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    dir = mkdtempSync(join(tmpdir(), 'uvol-clients-'));
    mkdirSync(join(dir, 'src'));
    const served = await request(app.getHttpServer()).get('/api/docs-json').expect(200);
    write('openapi.json', served.text);
  });

  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('generates a client with openapi-typescript and one with orval, each with its defaults', async () => {
    write(
      'orval.config.mjs',
      // The fetch client (no axios); the base URL is read when a call is made (the port is the test's).
      `export default { uvol: { input: { target: './openapi.json' }, output: {
        target: './src/orval.ts', client: 'fetch', mode: 'single',
        baseUrl: { runtime: 'apiBase()', imports: [{ name: 'apiBase', importPath: './orval-base.js' }] },
      } } };\n`,
    );
    write(
      'src/orval-base.ts',
      `let base = '';\nexport const apiBase = (): string => base;\nexport const setBase = (url: string): void => {\n  base = url;\n};\n`,
    );
    await Promise.all([
      node([bin('openapi-typescript/bin/cli.js'), 'openapi.json', '--output', 'src/openapi-typescript.ts']),
      node([bin('orval/dist/bin/orval.mjs'), '--config', 'orval.config.mjs', '--log-level', 'error']),
    ]);
  }, 120_000);

  it('compiles both under strict tsc, with a usage file that sends only the required fields', async () => {
    write('package.json', '{ "type": "module" }\n');
    write(
      'tsconfig.json',
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'es2023',
          lib: ['es2023', 'dom', 'dom.iterable'],
          module: 'es2022',
          moduleResolution: 'bundler',
          types: [],
          skipLibCheck: true,
          noEmitOnError: true,
          rootDir: 'src',
          outDir: 'out',
        },
        include: ['src'],
      }),
    );
    write('src/usage.ts', USAGE);
    // tsc prints its diagnostics and exits 2 when there are any: the error then holds them all.
    await node([bin('typescript/bin/tsc'), '-p', 'tsconfig.json', '--pretty', 'false']);
  }, 180_000);

  it('calls the service through each: GET /api/organisation (openapi-typescript), POST /auth/api/pre-auth-token (orval)', async () => {
    write(
      'call.mjs',
      `import { organisationName, preAuthToken } from './out/usage.js';\n` +
        `const [base, token, email, password] = process.argv.slice(2);\n` +
        `console.log(JSON.stringify({ organisation: await organisationName(base, token), preAuth: await preAuthToken(base, email, password) }));\n`,
    );
    const answer = JSON.parse(await node(['call.mjs', base, token, email, TEST_PASSWORD])) as {
      organisation: string;
      preAuth: { token: string; two_factor: unknown };
    };
    expect(answer).toEqual({
      organisation: 'riverside volunteers',
      preAuth: { token: expect.stringMatching(/\S{20}/), two_factor: null },
    });
  }, 60_000);
});

/**
 * The integrator's code: each request body with only its required fields (a shift booking and a
 * move, a rota, an expense), compiled and never sent; then the two calls the last test makes.
 */
const USAGE = `
import type { paths } from './openapi-typescript.js';
import { bookShift, createExpense, createPreAuthToken, createRota, listShifts, updateShift } from './orval.js';
import { setBase } from './orval-base.js';

type JsonBody<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

const booking = {
  user: { id: 7 },
  rota: { id: 3 },
  start_datetime: '2030-01-07T09:00:00Z',
  end_datetime: '2030-01-07T12:00:00Z',
};
const move = { start_datetime: '2030-01-07T10:00:00Z', end_datetime: '2030-01-07T13:00:00Z', edit_mode: 'single' } as const;
const rota = { name: 'Shop', start_date: '2030-01-07', pattern_id: 2, team: [4] };
const expense = { date: '2030-01-07', type: { id: 1 } };

// openapi-typescript: types only.
export const typedBooking: JsonBody<paths['/api/rota/shifts']['post']> = booking;
export const typedMove: JsonBody<paths['/api/rota/shifts/{id}']['put']> = move;
export const typedRota: JsonBody<paths['/api/rotas']['post']> = rota;
export const typedExpense: JsonBody<paths['/api/expenses']['post']> = expense;

// orval: functions named by the operationIds (never called: these requests are only compiled).
export const unsent = () => [
  bookShift(booking),
  updateShift(5, move),
  createRota(rota),
  createExpense(expense),
  listShifts(),
];

type Organisation = paths['/api/organisation']['get']['responses'][200]['content']['application/json'];

export async function organisationName(base: string, token: string): Promise<string> {
  const res = await fetch(base + '/api/organisation', { headers: { authorization: 'Bearer ' + token } });
  if (res.status !== 200) throw new Error('GET /api/organisation answered ' + res.status);
  const body: Organisation = await res.json();
  return body.data.name;
}

export async function preAuthToken(base: string, email: string, password: string) {
  setBase(base);
  const res = await createPreAuthToken({ email, password });
  if (res.status !== 200) throw new Error('POST /auth/api/pre-auth-token answered ' + res.status + ': ' + res.data.message);
  return { token: res.data.token, two_factor: res.data.two_factor };
}
`;

#!/usr/bin/env node
/**
 * Writes the OpenAPI document the API serves (`GET /api/docs-json`) to a file, for
 * `npm run lint:openapi` (redocly lint). Runs on the build (`npm run build` first): the API
 * application is created as `npm run start:api` creates it, in the embedded mode with a throw-away
 * DATA_DIR, so no PostgreSQL or Redis is needed; it is never started (no migrations, no listening):
 * the document is built when the application is created.
 * Usage: node scripts/write-openapi.mjs <file>
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [out] = process.argv.slice(2);
if (!out) {
  console.error('usage: node scripts/write-openapi.mjs <file>');
  process.exit(2);
}
const dist = new URL('../dist/', import.meta.url);
const { createHttpApp, loadConfig } = await import(new URL('libs/platform/src/index.js', dist).href);
const { ApiModule } = await import(new URL('apps/api/src/api.module.js', dist).href);

const dataDir = mkdtempSync(join(tmpdir(), 'uvol-openapi-'));
let app;
try {
  // Only these variables: the document must not depend on the machine's environment.
  const config = loadConfig(
    { NODE_ENV: 'development', DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://127.0.0.1:3000' },
    false,
  );
  app = await createHttpApp(ApiModule.forRoot(config), { logger: false });
  const res = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/api/docs-json' });
  if (res.statusCode !== 200) throw new Error(`GET /api/docs-json answered ${res.statusCode}`);
  writeFileSync(out, `${JSON.stringify(JSON.parse(res.body), null, 2)}\n`);
  console.log(`wrote ${out}`);
} finally {
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
}

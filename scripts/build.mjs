#!/usr/bin/env node
/**
 * The build behind `npm start`, `npm run start:api`, `start:worker` and `npm run cli`: compiles
 * with tsc only when something the build reads changed since the last build, so a start with
 * nothing changed costs a hash of the sources (tens of milliseconds) instead of a type-check of the
 * whole program (seconds, even incremental).
 *
 *   node scripts/build.mjs            build if a source changed (or dist is missing), else nothing
 *   node scripts/build.mjs --always   build, and record what was built (`npm run build`, `npm test`)
 *   node scripts/build.mjs --check    build nothing; exit 0 when up to date, 1 when a build is due
 *
 * What counts as a source: every .ts file under the folders tsconfig.build.json includes (tests
 * excepted, as the build excepts them), the two tsconfig files, package.json (its `imports`),
 * package-lock.json (a dependency's types) and the TypeScript version. Their content is hashed, not
 * their times, so a `git clone` or a `touch` alone does not rebuild and an edit undone does not
 * either. The hash of the last successful build is kept in dist/.build-stamp; a failed build
 * leaves no stamp, so the next start tries again. `npm run build` is `--always`: it records the
 * stamp, so the start after it compiles nothing (the Docker image runs tsc itself, without this
 * folder, and starts dist directly). Messages go to stderr: the CLI's stdout carries only its result.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(root, 'dist', '.build-stamp');
const TSCONFIG = 'tsconfig.build.json';
/** What the process scripts run: a build that lost one of them is rebuilt whatever the stamp says. */
const OUTPUTS = [
  'apps/standalone/src/main.js',
  'apps/api/src/main.js',
  'apps/worker/src/main.js',
  'apps/cli/src/main.js',
].map((p) => join(root, 'dist', p));
const NOT_BUILT = /\.(spec|int-spec|e2e-spec)\.ts$/;

const always = process.argv.includes('--always');
const check = process.argv.includes('--check');
const started = Date.now();
const hash = sourceHash();
const stamp = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : undefined;
const complete = OUTPUTS.every((f) => existsSync(f));

const upToDate = stamp === hash && complete;
if (check) {
  process.stderr.write(upToDate ? 'the build is up to date\n' : 'a build is due\n');
  process.exit(upToDate ? 0 : 1);
}
if (!always && upToDate) process.exit(0);

if (!always) {
  const why = !stamp
    ? 'no build yet'
    : !complete
      ? 'the build in dist is incomplete'
      : 'sources changed since the last build';
  process.stderr.write(`compiling TypeScript (${why})…\n`);
}
rmSync(STAMP, { force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', TSCONFIG], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) {
  if (!always) process.stderr.write('the TypeScript build failed: nothing was started\n');
  process.exit(result.status ?? 1);
}
writeFileSync(STAMP, `${hash}\n`);
if (!always) process.stderr.write(`compiled in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

function sourceHash() {
  const h = createHash('sha256');
  const add = (file) => {
    h.update(relative(root, file));
    h.update('\0');
    h.update(existsSync(file) ? readFileSync(file) : '(none)');
    h.update('\0');
  };
  const config = JSON.parse(readFileSync(join(root, TSCONFIG), 'utf8'));
  for (const folder of [...(config.include ?? [])].sort()) {
    for (const file of tsFiles(join(root, folder))) add(file);
  }
  for (const file of [
    'tsconfig.json',
    TSCONFIG,
    'package.json',
    'package-lock.json',
    'node_modules/typescript/package.json',
  ])
    add(join(root, file));
  return h.digest('hex');
}

function tsFiles(dir) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  )) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') found.push(...tsFiles(path));
    } else if (entry.name.endsWith('.ts') && !NOT_BUILT.test(entry.name)) found.push(path);
  }
  return found;
}

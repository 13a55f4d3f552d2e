import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';

const run = promisify(execFile);

/** The machine's own node (the npm scripts run node_modules/.bin's Node 24 instead): Node 20 here. */
const SYSTEM_NODE = '/usr/bin/node';
const systemVersion = existsSync(SYSTEM_NODE)
  ? execFileSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' }).trim()
  : undefined;
const old = systemVersion !== undefined && Number(/^v(\d+)/.exec(systemVersion)?.[1]) < 22;

/**
 * ADR 0007 (issue 31): under a Node older than package.json's engines, every entry point says so in
 * one line and exits 1, instead of dying with a bare segmentation fault. It needs an old node to
 * run: the machine's own, when it is older than 22 (it is 20 on the machines this is checked on).
 */
(old ? describe : describe.skip)(`the entry points under the machine's ${systemVersion ?? 'node'}`, () => {
  it.each(['standalone', 'api', 'worker', 'cli'])(
    'dist/apps/%s/src/main.js: one line naming the Node version needed, exit 1, nothing started',
    async (app) => {
      const outcome = await run(SYSTEM_NODE, [join(process.cwd(), `dist/apps/${app}/src/main.js`), '--help'], {
        // Nothing to open: a process that got past the check would say so, or fail otherwise.
        env: { PATH: process.env.PATH, DATA_DIR: '/nonexistent/uvol', JWT_SECRET: 'x'.repeat(32) },
        timeout: 30_000,
      }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (err: { code: number; stdout: string; stderr: string }) => ({ ...err }),
      );
      expect({ code: outcome.code, stdout: outcome.stdout, stderr: outcome.stderr }).toEqual({
        code: 1,
        stdout: '',
        stderr: expect.stringMatching(
          new RegExp(
            `^uvol needs Node 22\\.12\\.0 or newer \\(package.json "engines"\\); this is Node ${systemVersion!.slice(1).replace(/\./g, '\\.')}: .*\\n$`,
          ),
        ),
      });
    },
    60_000,
  );
});

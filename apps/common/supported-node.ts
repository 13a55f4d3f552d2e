import { packageFile } from './package-file.js';

/**
 * The lowest Node version package.json's `engines.node` accepts (written `>=22.12.0`: the only form
 * it uses), as [major, minor, patch].
 */
export function lowestSupportedNode(engines = packageFile().engines?.node): [number, number, number] | undefined {
  const match = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(engines?.trim() ?? '');
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** Whether `version` (process.versions.node: `22.12.0`) is at least `lowest`. */
export function isAtLeast(version: string, lowest: readonly [number, number, number]): boolean {
  const parts = version.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if ((parts[i] ?? 0) !== lowest[i]) return (parts[i] ?? 0) > lowest[i]!;
  }
  return true;
}

/**
 * Every entry point's first step (ADR 0007): on an older Node the service does not start, and says
 * so in one line, instead of dying later with a bare segmentation fault (a native package, loaded
 * by the imports that follow). This module imports only Node built-ins, so it runs anywhere.
 */
export function exitOnUnsupportedNode(): void {
  const lowest = lowestSupportedNode();
  if (!lowest || isAtLeast(process.versions.node, lowest)) return;
  process.stderr.write(
    `uvol needs Node ${lowest.join('.')} or newer (package.json "engines"); this is Node ${process.versions.node}: ` +
      'use the npm scripts (npm start, npm run cli), which run the Node 24 that npm install puts in ' +
      'node_modules/.bin, or install Node 24 (docs/adr/0007-node-24-through-npm.md)\n',
  );
  process.exit(1);
}

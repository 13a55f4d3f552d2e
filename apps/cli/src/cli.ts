import { type Invocation, parseCommandLine } from './command-line.js';
import { EXIT, UsageError } from './usage.js';

/**
 * `npm run cli -- <command> [arguments]` (`--help` lists them; main.ts checks the Node version first). A command's result goes to stdout
 * alone; messages and progress to stderr. Exit codes: 0 done, 1 failed, 2 bad usage or refused input.
 * Help, the version and bad usage are answered before the application is loaded, which takes seconds.
 */
let invocation: Invocation;
try {
  invocation = await parseCommandLine(process.argv.slice(2));
} catch (err) {
  // Bad usage: the message names the command and the --help to read.
  process.stderr.write(`${err instanceof UsageError ? err.message : String((err as Error).message ?? err)}\n`);
  process.exit(err instanceof UsageError ? EXIT.refused : EXIT.failed);
}
if ('print' in invocation) {
  process.stdout.write(invocation.print);
  process.exit(EXIT.done);
}
const { run } = await import('./run.js');
process.exit(await run(invocation.name, invocation.args, invocation.options));

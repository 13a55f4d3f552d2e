import { catalogue as commands, type CommandInfo } from './commands/catalogue.js';
import { InputError, UsageError } from './usage.js';

/** What the arguments ask for: a help text, or a command to run with its arguments. */
export type Invocation = { readonly help: string } | { readonly name: string; readonly args: string[] };

const HELP = new Set(['-h', '--help']);
const hint = (name?: string) => `npm run cli -- ${name ? `${name} ` : ''}--help`;

/**
 * `<command> [arguments]`, `--help`, `help [command]`, `<command> --help`. Anything else that
 * starts with a dash is an unknown option; `--` ends the options (for a file named `-x.json`).
 */
export async function parseCommandLine(argv: readonly string[]): Promise<Invocation> {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError(`no command given (${hint()} lists the commands)`);
  if (HELP.has(first) || first === 'help') {
    if (rest.length === 0) return { help: generalHelp() };
    const command = Object.hasOwn(commands, rest[0]!) ? commands[rest[0]!] : undefined;
    if (!command || rest.length > 1)
      throw new UsageError(`unknown command "${rest.join(' ')}" (${hint()} lists the commands)`);
    return { help: await commandHelp(command) };
  }
  const command = Object.hasOwn(commands, first) ? commands[first] : undefined;
  if (!command) throw new UsageError(`unknown command "${first}" (${hint()} lists the commands)`);
  const end = rest.indexOf('--');
  const options = end === -1 ? rest : rest.slice(0, end);
  if (options.some((a) => HELP.has(a))) return { help: await commandHelp(command) };
  const unknown = options.find((a) => a.startsWith('-') && a !== '-');
  if (unknown) throw new UsageError(`${first}: unknown option "${unknown}" (${hint(first)})`);
  const args = end === -1 ? rest : [...rest.slice(0, end), ...rest.slice(end + 1)];
  const [min, max] = command.arity;
  if (args.length < min || args.length > max) {
    const wanted = command.usage.split(' ').slice(1).join(' ') || 'no arguments';
    throw new UsageError(
      `${first}: expects ${wanted}, got ${args.length === 0 ? 'none' : args.map((a) => JSON.stringify(a)).join(' ')} (${hint(first)})`,
    );
  }
  try {
    await command.check?.(args);
  } catch (err) {
    if (err instanceof InputError) throw new InputError(`${first}: ${err.message}`);
    if (err instanceof UsageError) throw new UsageError(`${first}: ${err.message} (${hint(first)})`);
    throw err;
  }
  return { name: first, args };
}

const EXIT_CODES = [
  'Exit codes:',
  '  0  done',
  '  1  failed: the database could not be opened (unreachable; or, embedded, in use by another process such as',
  '     npm start), a lost race with another writer (nothing written: run it again), or an unexpected error',
  '  2  bad usage, or refused input: an unknown command, option or permission; a file that cannot be read, is not',
  '     JSON or fails its checks; an unknown organisation or user',
];

const ERRORS = [
  'Errors are one line on stderr (a refused file: one line, then one line per problem), without a stack trace;',
  'with LOG_LEVEL=debug (or trace) an unexpected error also prints its stack, and start-up is logged.',
];

export function generalHelp(): string {
  const width = Math.max(...Object.values(commands).map((c) => c.usage.length)) + 2;
  return [
    'uvol admin command line',
    '',
    'Usage: npm run cli -- <command> [arguments]',
    '       npm run cli -- <command> --help      what a command does, its arguments and output',
    '',
    'Commands:',
    ...Object.values(commands).map((c) => `  ${c.usage.padEnd(width)}${c.summary}`),
    '',
    "A command's result goes to stdout alone (JSON for provision and the users: commands); progress and messages",
    "go to stderr. Use `npm run -s cli` to keep npm's own lines out of stdout:",
    '  npm run -s cli -- provision riverside.json > ids.json',
    '',
    'Every command but migrate first brings the database schema up to date. Without DATABASE_URL the commands open',
    'the embedded database in DATA_DIR themselves, which one process at a time may do: stop npm start first.',
    '',
    ...EXIT_CODES,
    '',
    ...ERRORS,
    '',
  ].join('\n');
}

export async function commandHelp(command: CommandInfo): Promise<string> {
  return [
    `Usage: npm run cli -- ${command.usage}`,
    '',
    ...(await command.help()),
    '',
    ...EXIT_CODES,
    '',
    ...ERRORS,
    '',
  ].join('\n');
}

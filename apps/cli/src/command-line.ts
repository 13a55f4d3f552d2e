import { Command, CommanderError } from 'commander';
import { packageFile } from '../../common/package-file.js';
import { catalogue as commands, type CommandInfo } from './commands/catalogue.js';
import { InputError, UsageError } from './usage.js';

/** What the arguments ask for: a text to print (help, the version), or a command to run with its arguments. */
export type Invocation =
  | { readonly print: string }
  | { readonly name: string; readonly args: string[]; readonly options: Readonly<Record<string, string>> };

const hint = (name?: string) => `npm run cli -- ${name ? `${name} ` : ''}--help`;

/**
 * Commander parses (`<command> [arguments]`, `--help`, `-h`, `<command> --help`, `--version`, `--`
 * ending the options); its refusals go through `error()`, which says them in this command line's
 * words: one line naming the command and the --help to read, with commander's suggestion of a
 * near name when there is one. Help texts are this file's (some name the permissions or queues,
 * loaded only then), so commander's own help is not printed: `outputHelp` notes which was asked for.
 */
class Parser extends Command {
  /** The command whose help was asked for, kept on the program. */
  helpOf?: Command;

  override createCommand(name?: string): Command {
    return new Parser(name);
  }

  override outputHelp(): void {
    programOf(this).helpOf = this;
  }

  override error(message: string, options?: { code?: string }): never {
    const name = this.parent ? this.name() : undefined;
    const near = /\(Did you mean (?:one of )?(.+)\?\)/.exec(message)?.[1];
    const suggestion = near ? `; did you mean ${near}?` : '';
    switch (options?.code) {
      case 'commander.unknownCommand':
        throw new UsageError(`unknown command "${this.args[0]}"${suggestion} (${hint()} lists the commands)`);
      case 'commander.unknownOption': {
        const flag = /unknown option '(.+?)'/.exec(message)?.[1];
        throw new UsageError(`${name ? `${name}: ` : ''}unknown option "${flag}"${suggestion} (${hint(name)})`);
      }
      case 'commander.missingArgument':
      case 'commander.excessArguments': {
        const wanted = this.registeredArguments.map((a) => usageOf(a)).join(' ') || 'no arguments';
        const got = this.args.length === 0 ? 'none' : this.args.map((a) => JSON.stringify(a)).join(' ');
        throw new UsageError(`${name}: expects ${wanted}, got ${got} (${hint(name)})`);
      }
      default:
        throw new UsageError(`${name ? `${name}: ` : ''}${message.replace(/^error: /, '')} (${hint(name)})`);
    }
  }
}

const programOf = (command: Command): Parser => (command.parent ? programOf(command.parent) : (command as Parser));
const usageOf = (a: Command['registeredArguments'][number]) =>
  a.required ? `<${a.name()}${a.variadic ? '...' : ''}>` : `[${a.name()}${a.variadic ? ' ...' : ''}]`;

function parser(chosen: (name: string, args: string[], options?: Record<string, string>) => void): Parser {
  const program = new Parser('npm run cli --')
    .version(packageFile().version, '-V, --version', 'the version of uvol')
    .helpCommand(false)
    .showSuggestionAfterError(true)
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined, outputError: () => undefined })
    .exitOverride() as Parser;
  for (const [name, info] of Object.entries(commands)) {
    // `[name ...]` in the usage is commander's `[name...]`.
    const args = info.usage
      .split(' ')
      .slice(1)
      .join(' ')
      .replace(/ \.\.\./g, '...');
    const command = program.command(name);
    if (args) command.arguments(args);
    for (const flags of info.options ?? []) command.option(flags);
    command.allowExcessArguments(false).action(function (this: Command) {
      chosen(name, this.args, this.opts());
    });
  }
  program.command('help [command]').action(function (this: Command) {
    chosen('help', this.args);
  });
  return program;
}

/**
 * `<command> [arguments]`, `--help`, `help [command]`, `<command> --help`, `--version`. Anything
 * else that starts with a dash is an unknown option; `--` ends the options (for a file named `-x.json`).
 */
export async function parseCommandLine(argv: readonly string[]): Promise<Invocation> {
  if (argv.length === 0) throw new UsageError(`no command given (${hint()} lists the commands)`);
  let invocation: { name: string; args: string[]; options: Record<string, string> } | undefined;
  const program = parser((name, args, options = {}) => (invocation = { name, args, options }));
  try {
    program.parse([...argv], { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.code === 'commander.version') return { print: `${program.version()}\n` };
    const asked = program.helpOf;
    if (!asked) throw err;
    const command = asked === program ? undefined : commands[asked.name()];
    return { print: command ? await commandHelp(command) : generalHelp() };
  }
  const { name, args, options } = invocation!;
  if (name === 'help') {
    const [topic] = args;
    if (topic === undefined || topic === 'help') return { print: generalHelp() };
    // An unknown name is refused, with a suggestion, as the command itself would be.
    return Object.hasOwn(commands, topic) ? { print: await commandHelp(commands[topic]!) } : parseCommandLine([topic]);
  }
  try {
    await commands[name]!.check?.(args, options);
  } catch (err) {
    if (err instanceof InputError) throw new InputError(`${name}: ${err.message}`);
    if (err instanceof UsageError) throw new UsageError(`${name}: ${err.message} (${hint(name)})`);
    throw err;
  }
  return { name, args, options };
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

/** The usage with its options: `privacy:due [--as-of <date>] [--org <slug>]`. */
const usageLine = (c: CommandInfo) => [c.usage, ...(c.options ?? []).map((o) => `[${o}]`)].join(' ');

export function generalHelp(): string {
  const width = Math.max(...Object.values(commands).map((c) => usageLine(c).length)) + 2;
  return [
    'uvol admin command line',
    '',
    'Usage: npm run cli -- <command> [arguments]',
    '       npm run cli -- <command> --help      what a command does, its arguments and output',
    '       npm run cli -- --version             the version of uvol',
    '',
    'Commands:',
    ...Object.values(commands).map((c) => `  ${usageLine(c).padEnd(width)}${c.summary}`),
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
    `Usage: npm run cli -- ${usageLine(command)}`,
    '',
    ...(await command.help()),
    '',
    ...EXIT_CODES,
    '',
    ...ERRORS,
    '',
  ].join('\n');
}

import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfigOrExit } from '#app/platform';
import { CliLogger } from './cli-logger.js';
import { CliModule } from './cli.module.js';
import { runners } from './commands/commands.js';
import { outcomeOf } from './failures.js';
import { EXIT } from './usage.js';

/**
 * Loads the configuration, brings the application context up (the database, migrated, except for
 * `migrate`), runs the command, and answers its exit code. Every failure becomes one line on stderr
 * (a refused file: one line per problem) and its exit code; the stack of an unexpected one is shown
 * with LOG_LEVEL debug or trace.
 */
export async function run(
  name: string,
  args: readonly string[],
  options: Readonly<Record<string, string>> = {},
): Promise<number> {
  const config = loadConfigOrExit();
  const detailed = config.log.level === 'debug' || config.log.level === 'trace';
  let app: INestApplicationContext | undefined;
  try {
    app = await NestFactory.createApplicationContext(CliModule.forRoot(config, { migrate: name !== 'migrate' }), {
      logger: new CliLogger(detailed),
      abortOnError: false,
    });
    await runners[name]!(
      app,
      args,
      {
        out: (text) => process.stdout.write(text),
        err: (line) => process.stderr.write(`${line}\n`),
      },
      options,
    );
    await app.close();
    return EXIT.done;
  } catch (err) {
    await app?.close().catch(() => undefined);
    const outcome = outcomeOf(err, name);
    process.stderr.write(`${outcome.lines.join('\n')}\n`);
    if (outcome.unexpected)
      process.stderr.write(
        detailed && err instanceof Error && err.stack ? `${err.stack}\n` : 'LOG_LEVEL=debug shows where it failed.\n',
      );
    return outcome.code;
  }
}

import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfigOrExit } from '#app/platform';
import { CliModule } from './cli.module.js';
import { ProvisioningRefused } from '#app/identity';
import { commands, UsageError } from './commands/commands.js';

/** `npm run cli -- <command> [args]`. Exit codes: 0 done, 1 failed, 2 bad usage or input. */
const [name, ...args] = process.argv.slice(2);
const command = name ? commands[name] : undefined;
if (!command) {
  process.stderr.write(`${name ? `unknown command "${name}"\n\n` : ''}usage: npm run cli -- <command>\n\n`);
  for (const c of Object.values(commands)) process.stderr.write(`  ${c.usage.padEnd(32)} ${c.summary}\n`);
  process.exit(2);
}

const config = loadConfigOrExit();
const app = await NestFactory.createApplicationContext(CliModule.forRoot(config, { migrate: name !== 'migrate' }), { logger: ['error', 'warn'], abortOnError: false });
try {
  await command.run(app, args);
  await app.close();
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  await app.close().catch(() => undefined);
  process.exit(err instanceof UsageError || err instanceof ProvisioningRefused ? 2 : 1);
}

import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { readFile } from 'node:fs/promises';
import { CommandBus } from '@nestjs/cqrs';
import { Checkpoints, ProjectionReplayer } from '#app/event-store';
import { ProvisionCommand } from '#app/identity';
import { runMigrationsLocked } from '#app/platform';
import { replayProgress } from './progress.js';

/** Bad input: the command prints the message and exits 2 (provisioning.md). */
export class UsageError extends Error {}

export interface Command {
  readonly usage: string;
  readonly summary: string;
  run(app: INestApplicationContext, args: string[]): Promise<void>;
}

const out = (line: string) => process.stdout.write(`${line}\n`);

export const commands: Record<string, Command> = {
  migrate: {
    usage: 'migrate',
    summary: 'run the pending database migrations',
    async run(app) {
      const ran = await runMigrationsLocked(app.get(DataSource));
      out(ran.length ? `ran ${ran.length} migration(s): ${ran.join(', ')}` : 'no pending migrations');
    },
  },
  provision: {
    usage: 'provision <file>',
    summary: 'create an organisation, its teams, role profiles, categories and users from a JSON file',
    async run(app, [path, ...rest]) {
      if (!path || rest.length) throw new UsageError('usage: npm run cli -- provision <file>');
      let file: unknown;
      try {
        file = JSON.parse(await readFile(path, 'utf8'));
      } catch (err) {
        throw new UsageError(`cannot read ${path}: ${(err as Error).message}`);
      }
      out(JSON.stringify(await app.get(CommandBus).execute(new ProvisionCommand(file))));
    },
  },
  'projections:status': {
    usage: 'projections:status',
    summary: 'each projection and reactor with its checkpoint and how far behind the log it is',
    async run(app) {
      const rows = await app.get(Checkpoints).status();
      if (rows.length === 0) {
        out('no projections or reactors are registered');
        return;
      }
      const table = rows.map((r) => [r.name, r.kind, String(r.position), String(r.behind), r.state]);
      const header = ['name', 'kind', 'position', 'behind', 'state'];
      const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
      for (const r of [header, ...table]) out(r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd());
    },
  },
  'projections:replay': {
    usage: 'projections:replay [name ...]',
    summary: 'rebuild the named projections (all when none is named) from the event log, without stopping the API',
    async run(app, names) {
      const progress = replayProgress();
      try {
        const result = await app.get(ProjectionReplayer).replay(names, { onProgress: (p) => progress.update(p) });
        progress.stop();
        const rate = Math.round(result.events / Math.max(0.001, result.millis / 1000));
        out(`replayed ${result.events} events into ${result.projections.join(', ') || 'no projections'} in ${result.millis} ms (${rate} events/s)`);
      } finally {
        progress.stop();
      }
    },
  },
};

import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CommandBus } from '@nestjs/cqrs';
import { Checkpoints, ProjectionRegistry, ProjectionReplayer, systemActor } from '#app/event-store';
import {
  AddUsersCommand,
  type AddUsersResult,
  GrantPermissionsCommand,
  type HoldResult,
  HoldUserCommand,
  ProvisionCommand,
  type ProvisionResult,
  ReleaseUserCommand,
  RevokePermissionsCommand,
  type UserAccess,
  PersonalDataOfUsers,
  anonymisedUsers,
  usersNamed,
} from '#app/identity';
import {
  type AnonymisedUser,
  AnonymiseUsersCommand,
  type DueUser,
  PersonalDataExport,
  RetentionSweep,
  type SweepResult,
} from '#app/privacy';
import { bucketProblem, copyFilesToBucket, describeS3Error, s3Client } from '#app/files';
import { APP_CONFIG, type AppConfig, QueueAdmin, runMigrationsLocked } from '#app/platform';
import { Failure, UsageError } from '../usage.js';
import { readJson } from './input.js';
import { replayProgress } from './progress.js';

/** Where a command writes: its result on `out` (stdout), everything else on `err` (stderr). */
export interface Io {
  out(text: string): void;
  err(line: string): void;
}

/** A command's work, once the application is up (its usage and help: catalogue.ts). */
export type Run = (
  app: INestApplicationContext,
  args: readonly string[],
  io: Io,
  options: Readonly<Record<string, string>>,
) => Promise<void>;

const json = (value: unknown) => `${JSON.stringify(value)}\n`;
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function report(io: Io, user: UserAccess, did: string, nothing: string): void {
  io.out(json(user));
  io.err(
    user.changed
      ? `${did} ${user.email} (${user.organisation})`
      : `${user.email} (${user.organisation}): ${nothing}; nothing changed`,
  );
}

/** Columns padded to their widest cell, two spaces apart, the header first. */
function printTable(io: Io, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const r of [header, ...rows])
    io.out(
      `${r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd()}\n`,
    );
}

export const runners: Record<string, Run> = {
  async migrate(app, _args, io) {
    const ran = await runMigrationsLocked(app.get(DataSource));
    io.out(ran.length ? `ran ${ran.length} migration(s): ${ran.join(', ')}\n` : 'no pending migrations\n');
  },

  async provision(app, [path], io) {
    const file = await readJson(path!);
    const result: ProvisionResult = await app.get(CommandBus).execute(new ProvisionCommand(file));
    io.out(json(result));
    io.err(
      `provisioned ${result.organisation.slug} (id ${result.organisation.id}): ${count(Object.keys(result.teams).length, 'team')}, ` +
        `${count(Object.keys(result.role_profiles).length, 'role profile')}, ${count(Object.keys(result.categories).length, 'category', 'categories')}, ` +
        `${count(Object.keys(result.users).length, 'user')}`,
    );
  },

  async 'users:add'(app, [slug, path], io) {
    const file = await readJson(path!);
    const result: AddUsersResult = await app.get(CommandBus).execute(new AddUsersCommand(slug!, file));
    io.out(json(result));
    io.err(`added ${count(Object.keys(result.users).length, 'user')} to ${slug}`);
  },

  async 'users:grant'(app, [email, ...permissions], io) {
    const user: UserAccess = await app.get(CommandBus).execute(new GrantPermissionsCommand(email!, permissions));
    report(io, user, `granted ${permissions.join(', ')} to`, 'holds them already');
  },

  async 'users:revoke'(app, [email, ...permissions], io) {
    const user: UserAccess = await app.get(CommandBus).execute(new RevokePermissionsCommand(email!, permissions));
    report(io, user, `revoked ${permissions.join(', ')} from`, 'holds none of them');
  },

  async 'users:hold'(app, [email], io) {
    const user: HoldResult = await app.get(CommandBus).execute(new HoldUserCommand(email!));
    report(io, user, 'put on hold (status on_hold):', 'is on hold already');
  },

  async 'users:release'(app, [email], io) {
    const user: HoldResult = await app.get(CommandBus).execute(new ReleaseUserCommand(email!));
    report(io, user, 'released (status active):', 'is not on hold');
  },

  async 'users:export'(app, [reference], io) {
    const user = await app.get(PersonalDataOfUsers).locate(reference!);
    const data = user && (await app.get(PersonalDataExport).of(user.organisationId, user.id));
    if (!data) throw new UsageError(`no user has the e-mail address or id "${reference!.trim()}"`);
    io.out(json(data));
    io.err(`exported the personal data of user ${user.id}`);
  },

  async 'users:anonymise'(app, names, io) {
    const found = await usersNamed(app.get(DataSource), names);
    const unknown = names.filter((n) => !found.get(n));
    if (unknown.length)
      throw new UsageError(`no user is named ${unknown.map((n) => `"${n}"`).join(', ')}; nobody was anonymised`);
    const ids = [...found.values()].map((u) => u!.id);
    const done: AnonymisedUser[] = await app
      .get(CommandBus)
      .execute(
        new AnonymiseUsersCommand({ userIds: ids, requestedBy: 'operator', actor: systemActor('cli users:anonymise') }),
      );
    const anonymised = done.map((u) => u.id);
    io.out(json({ anonymised }));
    const skipped = [...new Set(ids)].length - anonymised.length;
    io.err(
      `anonymised ${count(anonymised.length, 'user')}${skipped ? `; ${skipped} anonymised already, skipped` : ''}`,
    );
  },

  async 'privacy:anonymised'(app, _args, io) {
    io.out(json(await anonymisedUsers(app.get(DataSource))));
  },

  async 'projections:status'(app, _args, io) {
    const rows = await app.get(Checkpoints).status();
    if (rows.length === 0) {
      io.out('no projections or reactors are registered\n');
      return;
    }
    const table = rows.map((r) => [r.name, r.kind, String(r.position), String(r.behind), r.state]);
    printTable(io, ['name', 'kind', 'position', 'behind', 'state'], table);
  },

  async 'queues:status'(app, _args, io) {
    const rows = await app.get(QueueAdmin).status();
    const table = rows.map((r) => [r.name, ...[r.waiting, r.active, r.delayed, r.failed].map(String)]);
    printTable(io, ['queue', 'waiting', 'active', 'delayed', 'failed'], table);
  },

  async 'queues:retry'(app, [name], io) {
    const retried = await app.get(QueueAdmin).retry(name!);
    io.out(json({ queue: name, retried }));
    io.err(retried ? `${count(retried, 'failed job')} of ${name} back to waiting` : `${name} has no failed jobs`);
  },

  async 'projections:replay'(app, names, io) {
    try {
      app.get(ProjectionRegistry).select(names);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const progress = replayProgress(process.stderr);
    try {
      const result = await app.get(ProjectionReplayer).replay(names, { onProgress: (p) => progress.update(p) });
      progress.stop();
      const rate = Math.round(result.events / Math.max(0.001, result.millis / 1000));
      io.out(
        `replayed ${result.events} events into ${result.projections.join(', ') || 'no projections'} in ${result.millis} ms (${rate} events/s)\n`,
      );
    } catch (err) {
      if ((err as Error).message?.startsWith('Another replay is running')) throw new Failure((err as Error).message);
      throw err;
    } finally {
      progress.stop();
    }
  },

  async 'files:to-s3'(app, [dataDir], io) {
    const config = app.get<AppConfig>(APP_CONFIG);
    const s3 = config.files.s3;
    if (!s3)
      throw new UsageError('S3_BUCKET is not set: name the bucket to copy into (docs/operations.md#object-storage)');
    const dir = dataDir ? join(resolve(dataDir), 'files') : config.files.dir;
    if (!(await stat(dir).catch(() => undefined))?.isDirectory())
      throw new UsageError(`no files folder at ${dir}: is ${dataDir ?? config.dataDir} a DATA_DIR?`);
    const client = s3Client(s3);
    try {
      const where = `bucket "${s3.bucket}"${s3.endpoint ? ` at ${s3.endpoint}` : ''}`;
      const problem = await bucketProblem(client, s3.bucket);
      if (problem) throw new Failure(`cannot use the ${where}: ${problem}`);
      const report = await copyFilesToBucket(client, s3.bucket, dir, (key, copied) => {
        if (copied) io.err(`copied ${key}`);
      }).catch((err: unknown) => {
        throw new Failure(`copying into the ${where} failed: ${describeS3Error(err)} (run it again to go on)`);
      });
      io.out(json(report));
      io.err(
        `${count(report.copied, 'file')} copied (${report.bytes} bytes), ${report.skipped} already in the ${where}`,
      );
    } finally {
      client.destroy();
    }
  },

  async 'privacy:due'(app, _args, io, { asOf, org }) {
    const due: DueUser[] = await app.get(RetentionSweep).due({ asOf, org });
    io.out(json(due));
    io.err(`${count(due.length, 'user')} due${asOf ? ` as of ${asOf}` : ''}`);
  },

  async 'privacy:sweep'(app, _args, io, { asOf, org }) {
    const result: SweepResult = await app.get(RetentionSweep).sweep({ asOf, org });
    io.out(json(result));
    io.err(`warned ${count(result.warned.length, 'user')}, anonymised ${count(result.anonymised.length, 'user')}`);
  },
};

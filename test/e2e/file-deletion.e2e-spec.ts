import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import sharp from 'sharp';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { EventStore, systemActor } from '#app/event-store';
import type { ProvisionResult } from '#app/identity';
import { deleteRedisKeys } from '../support/global-teardown.js';
import { eventually } from '../support/eventually.js';
import { type S3Server, startS3Server } from '../support/s3-server.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logInAll, provision, riversideFile, userFile } from '../support/test-app.js';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const png = () =>
  sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 20, g: 130, b: 90 } } })
    .png()
    .toBuffer();
/** The queues of libs/files/src/deletion. */
const FILE_DELETION = 'files-deletion';
const FILE_DELETION_SWEEP = 'files-deletion-sweep';

/**
 * docs/privacy.md, "Anonymising a user", 3 and 6: when identity.UserAnonymised is appended, the
 * user's file records go in the same transaction, and the worker deletes their files' bytes (and
 * thumbnails) from the disk or the bucket within a minute. The deletion is owed in PostgreSQL
 * (file_objects), so a queue that loses its data (an emptied Redis; in the embedded mode, the
 * queues' jobs gone) loses none of it. Another user's files stay.
 */
describe.each(['disk', 'bucket'] as const)('an anonymised user’s files (%s)', (storage) => {
  let s3: S3Server | undefined;
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let org: ProvisionResult;
  let tokens: Record<string, string>;
  let ds: DataSource;
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });

  beforeAll(async () => {
    if (storage === 'bucket') s3 = await startS3Server();
    env = await testEnvironment({ ...s3?.env, RECONCILE_MS: '500', AUTH_RATE_LIMIT_PER_ADDRESS: '10000' });
    app = await bootStandalone(env.config);
    ds = app.get(DataSource);
    org = await provision(
      app,
      riversideFile([
        userFile('a', ['create-expenses'], ['north-shop']),
        userFile('b', ['create-expenses'], ['north-shop']),
        userFile('c', ['create-expenses'], ['north-shop']),
      ]),
    );
    tokens = await logInAll(app, ['a', 'b', 'c']);
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    await s3?.close();
  });

  /** Uploads a PDF and an image (with its thumbnails); answers the files' ids. */
  const uploads = async (who: string) => {
    const ids: number[] = [];
    for (const [content, name] of [
      [PDF, `${who}-receipt.pdf`],
      [await png(), `${who}-photo.png`],
    ] as const)
      ids.push((await http().post('/api/files').set(as(who)).attach('file', content, name).expect(201)).body.data.id);
    return ids;
  };
  /** Every storage key of these files (bytes and thumbnails), from the records before they go. */
  const keysOf = async (ids: number[]): Promise<string[]> => {
    const rows: { storage_key: string; thumbnails: Record<string, { key: string }> }[] = await ds.query(
      `SELECT storage_key, thumbnails FROM files WHERE id = ANY($1)`,
      [ids],
    );
    return rows.flatMap((r) => [r.storage_key, ...Object.values(r.thumbnails).map((t) => t.key)]);
  };
  const stored = async (keys: string[]): Promise<string[]> => {
    if (s3) {
      const objects = await s3.objects();
      return keys.filter((k) => k in objects);
    }
    return keys.filter((k) => existsSync(join(env.config.files.dir, k)));
  };
  const anonymise = (who: string) =>
    app.get(EventStore).handle(
      `identity.User-${org.users[who]}`,
      (s) => s,
      () => [
        {
          type: 'identity.UserAnonymised',
          data: {
            userId: org.users[who]!,
            organisationId: org.organisation.id,
            requestedBy: 'operator',
            anonymisedAt: new Date().toISOString(),
          },
        },
      ],
      { expect: 'any', metadata: { organisationId: org.organisation.id, actor: systemActor('test') } },
    );
  const queue = (name: string) => app.get<Queue>(getQueueToken(name), { strict: false });

  it('the records go at once, names included; the bytes and thumbnails within a minute; another user’s stay', async () => {
    const mine = await uploads('a');
    const theirs = await uploads('b');
    const [myKeys, theirKeys] = [await keysOf(mine), await keysOf(theirs)];
    expect(myKeys.length).toBeGreaterThanOrEqual(3);
    expect(await stored(myKeys)).toEqual(myKeys);

    await anonymise('a');
    // In the appending transaction: no record, no name; the deletion owed in PostgreSQL.
    expect(await ds.query(`SELECT id FROM files WHERE id = ANY($1)`, [mine])).toEqual([]);
    expect(await ds.query(`SELECT id FROM files WHERE original_name LIKE 'a-%'`)).toEqual([]);
    // Their own token died with them (identity's projection of the same event): 401, not the file.
    await http().get(`/api/files/${mine[0]}`).set(as('a')).expect(401);

    await eventually(async () => (await stored(myKeys)).length === 0, 60_000);
    await eventually(
      async () => (await ds.query(`SELECT file_id FROM file_objects WHERE file_id = ANY($1)`, [mine])).length === 0,
      10_000,
    );
    expect(await stored(theirKeys)).toEqual(theirKeys);
    expect((await ds.query(`SELECT id FROM files WHERE id = ANY($1)`, [theirs])).length).toBe(theirs.length);
  }, 90_000);

  it('a queue that loses its data while the deletion is owed loses none of it', async () => {
    const mine = await uploads('c');
    const keys = await keysOf(mine);
    // Held: the queues take the jobs but run none, so the deletion is still owed when they are lost.
    await queue(FILE_DELETION).pause();
    await queue(FILE_DELETION_SWEEP).pause();
    await anonymise('c');
    // The reactor's job is the event's id: held in the paused queue.
    const [{ event_id: job }] = await ds.query(
      `SELECT event_id::text FROM events WHERE type = 'identity.UserAnonymised' ORDER BY position DESC LIMIT 1`,
    );
    await eventually(async () => (await queue(FILE_DELETION).getJob(job)) !== undefined, 30_000);
    expect(await stored(keys)).toEqual(keys);
    const [{ n }] = await ds.query(
      `SELECT count(*)::int AS n FROM file_objects WHERE deletion_owed_since IS NOT NULL AND file_id = ANY($1)`,
      [mine],
    );
    expect(n).toBe(mine.length);

    if (env.config.queue.redisUrl) {
      // FLUSHDB as this deployment sees it (the test's Redis database is shared): every key of the prefix.
      const consoleError = jest.spyOn(console, 'error');
      expect(await deleteRedisKeys(env.config.queue.redisUrl, `${env.config.queue.prefix}:*`)).toBeGreaterThan(0);
      consoleError.mockRestore();
    } else {
      // The embedded mode's queues live in PGlite; what it can lose is the queues' jobs.
      for (const name of [FILE_DELETION, FILE_DELETION_SWEEP]) {
        await queue(name).obliterate({ force: true });
        await queue(name).resume();
      }
    }
    // The bytes first, then the owed row.
    await eventually(async () => (await stored(keys)).length === 0, 60_000);
    await eventually(
      async () => (await ds.query(`SELECT file_id FROM file_objects WHERE file_id = ANY($1)`, [mine])).length === 0,
      10_000,
    );
  }, 120_000);
});

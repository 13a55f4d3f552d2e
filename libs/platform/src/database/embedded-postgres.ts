import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * PGlite in this process, served on a Unix socket inside its own folder so TypeORM and BullMQ keep
 * the ordinary `pg` driver. A socket rather than a TCP port: no port to collide with, and the
 * folder's permissions keep other local users out (PGlite has no passwords).
 * `dataDir` undefined gives an in-memory database (tests).
 */
export async function startEmbeddedPostgres(dataDir: string | undefined, socketDir: string): Promise<EmbeddedPostgres> {
  if (dataDir) mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // PGlite does not create parents
  mkdirSync(socketDir, { recursive: true, mode: 0o700 });
  const db = await PGlite.create(dataDir);
  const server = new PGLiteSocketServer({ db, path: join(socketDir, '.s.PGSQL.5432'), maxConnections: 32 });
  await server.start();
  return {
    url: `postgres://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

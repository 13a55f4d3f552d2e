import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { groupPipelines } from './pglite-pipeline.js';

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
  const lock = dataDir ? claimDirectory(socketDir) : undefined;
  const socket = join(socketDir, '.s.PGSQL.5432');
  rmSync(socket, { force: true }); // left behind by a process that died; nobody else owns the folder
  const db = await PGlite.create(dataDir);
  const server = new PGLiteSocketServer({ db, path: socket, maxConnections: 32 });
  groupPipelines(server);
  await server.start();
  return {
    url: `postgres://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`,
    async stop() {
      await server.stop();
      await db.close();
      if (lock) rmSync(lock, { force: true });
    },
  };
}

/**
 * PGlite is one process's database: a second process opening the same folder would corrupt it.
 * A pid file makes the second one (say, a CLI command while `npm start` runs) stop with a clear
 * message instead.
 */
function claimDirectory(dir: string): string {
  const file = join(dir, 'owner.pid');
  let owner: number | undefined;
  try {
    owner = Number(readFileSync(file, 'utf8'));
  } catch {
    owner = undefined;
  }
  if (owner && owner !== process.pid && isAlive(owner)) {
    throw new Error(
      `The embedded database in ${dir} is in use by process ${owner}. Stop that process first, ` +
        'or set DATABASE_URL to a PostgreSQL server that several processes can share.',
    );
  }
  writeFileSync(file, String(process.pid));
  return file;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

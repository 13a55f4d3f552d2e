import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { StartRefusal } from '../logging/start-logs.js';
import { groupPipelines } from './pglite-pipeline.js';

export interface EmbeddedPostgres {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Lines for whoever watches the start: creating the database and migrating it take long enough to
 * say so. A `detail` (how long opening took) is for the server's log, not a command's stderr.
 */
export type StartupProgress = (message: string, options?: { readonly detail?: boolean }) => void;

/**
 * PGlite in this process, served on a Unix socket inside its own folder so TypeORM and BullMQ keep
 * the ordinary `pg` driver. A socket rather than a TCP port: no port to collide with, and the
 * folder's permissions keep other local users out (PGlite has no passwords).
 * `dataDir` undefined gives an in-memory database (tests); its initdb runs in this process, and
 * takes longer the bigger this process's heap (embedded-postgres.int-spec.ts).
 *
 * A folder without a database gets one first, in a child process (createInChildProcess), so this
 * process opens it as every later start does.
 */
export async function startEmbeddedPostgres(
  dataDir: string | undefined,
  socketDir: string,
  progress: StartupProgress = () => undefined,
): Promise<EmbeddedPostgres> {
  if (dataDir) mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // PGlite does not create parents
  mkdirSync(socketDir, { recursive: true, mode: 0o700 });
  const lock = dataDir ? claimDirectory(socketDir) : undefined;
  const socket = join(socketDir, '.s.PGSQL.5432');
  rmSync(socket, { force: true }); // left behind by a process that died; nobody else owns the folder
  if (dataDir && !existsSync(join(dataDir, 'PG_VERSION'))) {
    const started = Date.now();
    progress(`creating the embedded database in ${dataDir} (first start only; it takes a few seconds)…`);
    await createInChildProcess(dataDir).catch((err: unknown) => {
      if (lock) rmSync(lock, { force: true });
      throw err;
    });
    progress(`embedded database created in ${Date.now() - started} ms`);
  }
  const db = await PGlite.create(dataDir);
  // Every BullMQ queue and worker keeps connections of its own beside the application's pool (the
  // rota context alone has five queues): 32 was reached, then 128 once files, identity and privacy
  // added five queues (the dashboard opens every queue: "read ECONNRESET"), and a refused connection
  // fails a request.
  const server = new PGLiteSocketServer({ db, path: socket, maxConnections: 512 });
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
 * Runs initdb for `dataDir` in a short-lived child process. PGlite creates a database by starting
 * a second PGlite instance and the initdb WASM module beside the one it returns, and the WebAssembly
 * memory they grow is not handed back to the system while the process lives: a first start done in
 * one process kept about 190 MB more than every later start, and peaked 250 MB higher
 * (bench/README.md, "First start"). The child does the creating and exits; this process then opens
 * the folder as a later start does.
 */
async function createInChildProcess(dataDir: string): Promise<void> {
  // The module this process loaded, wherever the child starts from.
  const pglite = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  const script =
    'const [module, dir] = process.argv.slice(1); const { PGlite } = await import(module); const db = await PGlite.create(dir); await db.close();';
  // --liftoff-only: V8's baseline WASM compiler alone. initdb runs once for a few seconds; the
  // optimising compiler's work on PGlite's 9 MB module would be thrown away with the process, and
  // it is most of the child's peak (1.1 GB with it, 0.65 GB without, in the same time).
  const child = spawn(process.execPath, ['--liftoff-only', '--input-type=module', '--eval', script, pglite, dataDir], {
    stdio: ['ignore', 'ignore', 'pipe'],
    // Not this process's NODE_OPTIONS (a test runner's flags, a debugger port): a plain Node.
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const code = await new Promise<number | null>((resolve, reject) =>
    child.once('error', reject).once('close', resolve),
  );
  if (code !== 0 || !existsSync(join(dataDir, 'PG_VERSION'))) {
    throw new Error(
      `Creating the embedded database in ${dataDir} failed (exit code ${code}): ${stderr.trim() || 'no message'}`,
    );
  }
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
    throw new StartRefusal(
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

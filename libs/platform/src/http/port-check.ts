import { createServer } from 'node:net';
import { LISTEN_FAILURES } from './http-app.js';

/**
 * Before anything is opened: a port another process holds is said in one line and the process
 * exits 1 at once. Found only at `listen()`, it came after the database, the migrations and the
 * workers had started, and the embedded mode then took 15 s to stop them (issue 31). A process
 * that takes the port in the moment between this check and the listen is still refused by
 * `listen()`, the slow way.
 */
export async function exitIfPortTaken(http: { port: number; host: string }): Promise<void> {
  const server = createServer();
  const code = await new Promise<string | undefined>((resolve) => {
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'unknown'));
    server.listen(http.port, http.host, () => resolve(undefined));
  });
  await new Promise((resolve) => server.close(resolve));
  const why = code ? LISTEN_FAILURES[code] : undefined;
  if (!why) return;
  process.stderr.write(`cannot listen on ${http.host}:${http.port}: ${why}\n`);
  process.exit(1);
}

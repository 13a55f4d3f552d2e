import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import type { AppConfig } from '#app/platform';

/** The built processes, as `npm run start:worker`, `start:api` and `npm start` run them (the suite builds first). */
export const BUILT = {
  worker: join(process.cwd(), 'dist/apps/worker/src/main.js'),
  api: join(process.cwd(), 'dist/apps/api/src/main.js'),
  standalone: join(process.cwd(), 'dist/apps/standalone/src/main.js'),
} as const;

/** A built process of the service, its JSON log lines as they come. */
export interface ServiceProcess {
  readonly child: ChildProcess;
  readonly lines: { level: number; msg: string; [key: string]: unknown }[];
  /** Until a log line whose message matches, at most `ms`. */
  waitForLine(msg: RegExp, ms?: number): Promise<void>;
  /** Until the process has exited: its code and signal. */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `main` (a path of BUILT) on the test's configuration (its database, queues, DATA_DIR and
 * secrets), `env` added (SMTP_URL, PORT…), logging JSON at info.
 */
export function startProcess(main: string, config: AppConfig, env: Record<string, string> = {}): ServiceProcess {
  const child = spawn(process.execPath, [main], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      LOG_PRETTY: 'false',
      DATA_DIR: config.dataDir,
      DATABASE_URL: config.database.url ?? '',
      REDIS_URL: config.queue.redisUrl ?? '',
      QUEUE_PREFIX: config.queue.prefix,
      JWT_SECRET: config.auth.jwtSecret,
      PUBLIC_URL: config.http.publicUrl,
      REACTOR_POLL_MS: '50',
      ...env,
    },
  });
  const lines: ServiceProcess['lines'] = [];
  let buffered = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const complete = buffered.split('\n');
    buffered = complete.pop()!;
    for (const line of complete) if (line.startsWith('{')) lines.push(JSON.parse(line));
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    lines,
    exited: () => exit,
    async waitForLine(msg, ms = 60_000) {
      const until = Date.now() + ms;
      while (!lines.some((l) => msg.test(l.msg))) {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`exited before logging ${msg}: ${stderr}\n${lines.map((l) => l.msg).join('\n')}`);
        if (Date.now() > until) throw new Error(`no line ${msg} in ${ms} ms: ${lines.map((l) => l.msg).join('\n')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/** Ends a process the test started, if it still runs (SIGKILL: nothing to wait for). */
export async function stopProcess(p: ServiceProcess | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGKILL');
  await p.exited();
}

/** A port nothing listens on now, for a child's PORT. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

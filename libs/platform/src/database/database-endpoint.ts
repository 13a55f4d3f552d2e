import type { AppConfig } from '../config/app-config.js';
import { type EmbeddedPostgres, type StartupProgress, startEmbeddedPostgres } from './embedded-postgres.js';

/** Where the database is, and whether this process started it. */
export interface DatabaseEndpoint {
  readonly url: string;
  readonly embedded: boolean;
  close(): Promise<void>;
}

export const DATABASE_ENDPOINT = Symbol('DATABASE_ENDPOINT');

export async function openDatabaseEndpoint(
  config: AppConfig,
  progress: StartupProgress = () => undefined,
): Promise<DatabaseEndpoint> {
  if (config.database.url) return { url: config.database.url, embedded: false, close: async () => undefined };
  const started = Date.now();
  const pg: EmbeddedPostgres = await startEmbeddedPostgres(
    config.database.embeddedDir,
    config.database.embeddedDir,
    progress,
  );
  progress(`embedded PostgreSQL (PGlite) in ${config.database.embeddedDir}, ready in ${Date.now() - started} ms`, {
    detail: true,
  });
  return { url: pg.url, embedded: true, close: () => pg.stop() };
}

import type { AppConfig } from '../config/app-config.js';

let current: Pick<AppConfig, 'secretsKey'> | undefined;

/**
 * The configuration of the process running the migrations, for the few that need more than SQL
 * (sealing the log's personal data with keys sealed by SECRETS_KEY, issue 32). TypeORM builds
 * migrations itself, without arguments; the database module records the config here before it runs them.
 */
export function recordMigrationConfig(config: Pick<AppConfig, 'secretsKey'>): void {
  current = config;
}

export function migrationConfig(): Pick<AppConfig, 'secretsKey'> {
  if (!current) throw new Error('migrationConfig: no process configuration recorded before the migrations ran');
  return current;
}

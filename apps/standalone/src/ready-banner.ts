import type { AppConfig } from '#app/platform';

/**
 * What `npm start` prints last on a terminal: the address it serves, where the documentation and
 * the health check are, where the data is kept and how to stop. Plain text for a person; the log
 * (JSON off a terminal) keeps its own `serving <url>` record.
 */
export function readyBanner(config: Pick<AppConfig, 'http' | 'database' | 'dataDir'>): string {
  const url = config.http.publicUrl;
  const lines = [
    `uvol is ready: ${url}`,
    `  API documentation  ${url}/api/docs`,
    `  health check       ${url}/health`,
    config.database.url
      ? '  database           DATABASE_URL'
      : `  data               ${config.dataDir} (delete it, stopped, to start over)`,
    '  stop with Ctrl+C',
  ];
  const width = Math.max(...lines.map((l) => l.length));
  const rule = '─'.repeat(width);
  return `\n${rule}\n${lines.join('\n')}\n${rule}\n\n`;
}

/**
 * LOG_PRETTY: pino's JSON records turned into one readable line each, for a developer's terminal,
 * without a transport or worker thread (pino-pretty is not a dependency):
 *
 *   10:12:03.123 INFO  [Bootstrap] serving http://127.0.0.1:3000 (mode: standalone)
 *   10:12:04.456 INFO  request completed method=GET route=/api/users/:id status=200 duration_ms=4 reqId=…
 *
 * An error's stack follows on its own lines.
 */
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
// Said once by the line's shape, or of no use on a terminal.
const OMITTED = new Set(['level', 'time', 'msg', 'context', 'pid', 'hostname', 'err']);

export function formatPretty(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const time = typeof record.time === 'number' ? new Date(record.time).toISOString().slice(11, 23) : '';
  const level = (LEVELS[record.level as number] ?? String(record.level)).padEnd(5);
  const parts = [time, level];
  if (typeof record.context === 'string') parts.push(`[${record.context}]`);
  if (record.msg !== undefined) parts.push(String(record.msg));
  for (const [key, value] of Object.entries(record)) {
    if (OMITTED.has(key) || value === undefined) continue;
    parts.push(`${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  const err = record.err as { stack?: unknown; message?: unknown } | undefined;
  const stack = err && typeof err === 'object' ? String(err.stack ?? err.message ?? '') : '';
  return `${parts.join(' ')}\n${stack ? `${stack}\n` : ''}`;
}

/** A pino destination writing formatPretty's lines to `out` (stdout by default). */
export function prettyDestination(out: { write(text: string): unknown } = process.stdout): {
  write(line: string): void;
} {
  return { write: (line: string) => void out.write(formatPretty(line)) };
}

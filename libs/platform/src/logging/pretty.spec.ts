import { describe, expect, it } from '@jest/globals';
import { formatPretty, prettyDestination } from './pretty.js';

describe('LOG_PRETTY formatting', () => {
  const time = Date.UTC(2026, 10, 22, 10, 12, 3, 123);

  it('writes one line: time, level, context, message, then the other fields', () => {
    const record = {
      level: 30,
      time,
      pid: 1,
      hostname: 'h',
      reqId: 'r-1',
      method: 'GET',
      route: '/api/users/:id',
      status: 200,
      duration_ms: 4.2,
      msg: 'request completed',
    };
    expect(formatPretty(`${JSON.stringify(record)}\n`)).toBe(
      '10:12:03.123 INFO  request completed reqId=r-1 method=GET route=/api/users/:id status=200 duration_ms=4.2\n',
    );
    expect(formatPretty(JSON.stringify({ level: 40, time, context: 'Bootstrap', msg: 'slow' }))).toBe(
      '10:12:03.123 WARN  [Bootstrap] slow\n',
    );
  });

  it('puts an error stack on the lines after, and passes a line that is not JSON through', () => {
    const out = formatPretty(
      JSON.stringify({
        level: 50,
        time,
        msg: 'failed',
        err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x' },
      }),
    );
    expect(out).toBe('10:12:03.123 ERROR failed\nError: boom\n    at x\n');
    expect(formatPretty('plain text')).toBe('plain text\n');
  });

  it('is a destination pino writes to', () => {
    const written: string[] = [];
    prettyDestination({ write: (text: string) => written.push(text) }).write(
      JSON.stringify({ level: 30, time, msg: 'hello' }),
    );
    expect(written).toEqual(['10:12:03.123 INFO  hello\n']);
  });
});

import { describe, expect, it } from '@jest/globals';
import { isDependencyError } from './dependency-errors.js';

describe('isDependencyError', () => {
  it('given a lost or refused connection (code, message or wrapped), then true', () => {
    expect(isDependencyError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDependencyError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDependencyError({ driverError: Object.assign(new Error('x'), { code: '57P01' }) })).toBe(true);
    // ALTER DATABASE … ALLOW_CONNECTIONS false: PostgreSQL's refusal of a new connection.
    const closed = new Error('database "uvol" is not currently accepting connections');
    expect(isDependencyError(Object.assign(closed, { code: '55000' }))).toBe(true);
    // TypeORM's runner released by its own connection's failure (the reactor runner's unlock after an outage).
    expect(isDependencyError(new Error('Query runner already released. Cannot run queries anymore.'))).toBe(true);
  });

  it('given an error of the request or the code, then false', () => {
    expect(isDependencyError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    // The same SQLSTATE for a code's mistake.
    const early = new Error('currval of sequence "ids" is not yet defined in this session');
    expect(isDependencyError(Object.assign(early, { code: '55000' }))).toBe(false);
    expect(isDependencyError(new TypeError('x is undefined'))).toBe(false);
    expect(isDependencyError(null)).toBe(false);
  });
});

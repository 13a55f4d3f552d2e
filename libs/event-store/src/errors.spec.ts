import { describe, expect, it } from '@jest/globals';
import { isStreamVersionTaken } from './errors.js';

describe('isStreamVersionTaken', () => {
  const pgError = (code: string, constraint?: string) => Object.assign(new Error('duplicate key'), { code, constraint });

  it('given a unique violation of the (stream, version) key or of the event id, from pg or wrapped by TypeORM, then it is a lost race', () => {
    expect(isStreamVersionTaken(pgError('23505', 'events_stream_id_stream_version_key'))).toBe(true);
    expect(isStreamVersionTaken(pgError('23505', 'events_event_id_key'))).toBe(true);
    expect(isStreamVersionTaken({ driverError: pgError('23505', 'events_stream_id_stream_version_key') })).toBe(true);
  });

  it('given another constraint, another error, or no error object at all, then it is not', () => {
    expect(isStreamVersionTaken(pgError('23505', 'expenses_pkey'))).toBe(false);
    expect(isStreamVersionTaken(pgError('23503', 'events_stream_id_stream_version_key'))).toBe(false);
    expect(isStreamVersionTaken(pgError('23505'))).toBe(false);
    expect(isStreamVersionTaken(undefined)).toBe(false);
    expect(isStreamVersionTaken(null)).toBe(false);
    expect(isStreamVersionTaken(new Error('boom'))).toBe(false);
  });
});

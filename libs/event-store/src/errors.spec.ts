import { describe, expect, it } from '@jest/globals';
import { isLostRace } from './errors.js';

describe('isLostRace', () => {
  const pgError = (code: string, constraint?: string) => Object.assign(new Error('duplicate key'), { code, constraint });

  it('given a unique violation of the (stream, version) key or of the event id, from pg or wrapped by TypeORM, then it is a lost race', () => {
    expect(isLostRace(pgError('23505', 'events_stream_id_stream_version_key'))).toBe(true);
    expect(isLostRace(pgError('23505', 'events_event_id_key'))).toBe(true);
    expect(isLostRace({ driverError: pgError('23505', 'events_stream_id_stream_version_key') })).toBe(true);
  });

  it('given another constraint, another error, or no error object at all, then it is not', () => {
    expect(isLostRace(pgError('23505', 'expenses_pkey'))).toBe(false);
    expect(isLostRace(pgError('23503', 'events_stream_id_stream_version_key'))).toBe(false);
    expect(isLostRace(pgError('23505'))).toBe(false);
    expect(isLostRace(undefined)).toBe(false);
    expect(isLostRace(null)).toBe(false);
    expect(isLostRace(new Error('boom'))).toBe(false);
  });
});

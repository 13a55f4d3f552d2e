import { describe, expect, it } from '@jest/globals';
import { ConcurrencyError, isLostRace, lostRaceAsConflict } from './errors.js';

describe('isLostRace', () => {
  const pgError = (code: string, constraint?: string) =>
    Object.assign(new Error('duplicate key'), { code, constraint });

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

describe('lostRaceAsConflict', () => {
  const appends = [
    { streamId: 'a', expectedVersion: 1, events: [{ type: 't', data: {} }] },
    { streamId: 'b, c', expectedVersion: 'no_stream' as const, events: [{ type: 't', data: {}, eventId: 'e-1' }] },
  ];
  const lost = (constraint: string, detail: string) =>
    Object.assign(new Error('duplicate key'), { code: '23505', constraint, detail });
  const caught = (error: unknown) => {
    try {
      lostRaceAsConflict(appends)(error);
    } catch (e) {
      return e;
    }
  };

  it('given a lost race, then the ConcurrencyError names the stream Postgres names, by version or by event id, else the first', () => {
    expect(
      caught(lost('events_stream_id_stream_version_key', 'Key (stream_id, stream_version)=(b, c, 1) already exists.')),
    ).toMatchObject({ streamId: 'b, c', expected: 'no_stream' });
    expect(caught({ driverError: lost('events_event_id_key', 'Key (event_id)=(e-1) already exists.') })).toMatchObject({
      streamId: 'b, c',
    });
    expect(caught(lost('events_stream_id_stream_version_key', 'something else'))).toMatchObject({
      streamId: 'a',
      expected: '1',
    });
    expect(caught(lost('events_stream_id_stream_version_key', 'x'))).toBeInstanceOf(ConcurrencyError);
  });

  it('given any other error, then it passes it on', () => {
    const other = new Error('boom');
    expect(caught(other)).toBe(other);
  });
});

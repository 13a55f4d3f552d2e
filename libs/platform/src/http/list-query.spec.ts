import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '../errors/domain-error.js';
import { parseBooleanQuery, parseIdList, parseListQuery } from './list-query.js';

const spec = { sorts: ['date', 'amount'] as const, includes: ['user', 'type', 'role.roleProfile'] as const };

function errorsOf(fn: () => unknown): Record<string, string[]> {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.errors ?? {};
    throw err;
  }
  throw new Error('expected a ValidationError');
}

describe('parseListQuery', () => {
  it('defaults to page 1, 15 per page, the first sort column ascending, nothing included', () => {
    expect(parseListQuery({}, spec)).toEqual({
      page: 1,
      perPage: 15,
      sort: 'date',
      direction: 'asc',
      include: new Set(),
    });
  });

  it('reads page, per_page, limit as its alias, s, o and include', () => {
    const q = parseListQuery({ page: '3', limit: '50', s: 'amount', o: 'd', include: 'user,role.roleProfile' }, spec);
    expect(q).toEqual({
      page: 3,
      perPage: 50,
      sort: 'amount',
      direction: 'desc',
      include: new Set(['user', 'role.roleProfile']),
    });
    expect(parseListQuery({ per_page: '20', limit: '99' }, spec).perPage).toBe(20);
  });

  it('names every bad parameter in one 422', () => {
    const errors = errorsOf(() =>
      parseListQuery({ page: '0', per_page: '101', s: 'name', o: 'up', include: 'user,secrets' }, spec),
    );
    expect(Object.keys(errors).sort()).toEqual(['include', 'o', 'page', 'per_page', 's']);
    expect(errors.include![0]).toMatch(/secrets/);
  });

  it.each(['abc', '-1', '1.5', ''])('refuses page=%p', (page) => {
    expect(Object.keys(errorsOf(() => parseListQuery({ page }, spec)))).toEqual(['page']);
  });
});

describe('parseBooleanQuery', () => {
  it.each([
    ['true', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('reads %p as %p', (raw, value) => expect(parseBooleanQuery({ claimed: raw }, 'claimed')).toBe(value));

  it('is undefined when absent, a 422 otherwise', () => {
    expect(parseBooleanQuery({}, 'claimed')).toBeUndefined();
    expect(errorsOf(() => parseBooleanQuery({ claimed: 'yes' }, 'claimed'))).toEqual({ claimed: [expect.any(String)] });
  });
});

describe('parseIdList', () => {
  it('reads comma-separated ids, a repeated parameter as one list; absent is undefined', () => {
    expect(parseIdList({ teams: '3, 7' }, 'teams')).toEqual([3, 7]);
    expect(parseIdList({ teams: ['3', '7,9'] }, 'teams')).toEqual([3, 7, 9]);
    expect(parseIdList({}, 'teams')).toBeUndefined();
  });

  it.each(['0', '1,0', 'x', '1,,2', '', '-1', '1.5', '1234567890123456'])('refuses %p (ids start at 1)', (raw) => {
    expect(errorsOf(() => parseIdList({ user: raw }, 'user'))).toEqual({
      user: ['The user field must be comma-separated ids.'],
    });
  });
});

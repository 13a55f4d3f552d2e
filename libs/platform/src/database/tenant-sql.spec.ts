import { describe, expect, it } from '@jest/globals';
import { sql, tenantScope, tenantSql } from './tenant-sql.js';

const caller = { organisationId: 7, userId: 3 };

describe('tenantSql', () => {
  it('binds the organisation id as $1 and numbers the other values after it', () => {
    const q = tenantSql(
      caller,
    )`SELECT id FROM expenses e WHERE ${tenantScope('e')} AND e.user_id = ${3} AND e.id = ANY(${[1, 2]}::bigint[])`;
    expect(q).toEqual({
      text: 'SELECT id FROM expenses e WHERE e.organisation_id = $1 AND e.user_id = $2 AND e.id = ANY($3::bigint[])',
      values: [7, 3, [1, 2]],
    });
  });

  it('scopes without an alias, and as often as the statement asks, always with $1', () => {
    const q = tenantSql(
      caller,
    )`SELECT 1 FROM a JOIN b USING (id) WHERE ${tenantScope()} AND ${tenantScope('b')} LIMIT ${5}`;
    expect(q.text).toBe(
      'SELECT 1 FROM a JOIN b USING (id) WHERE organisation_id = $1 AND b.organisation_id = $1 LIMIT $2',
    );
    expect(q.values).toEqual([7, 5]);
  });

  it('refuses a statement without a scope, naming it', () => {
    expect(() => tenantSql(caller)`SELECT * FROM files WHERE id = ${1}`).toThrow(
      /no tenantScope\(\): SELECT \* FROM files WHERE id = \$2/,
    );
  });

  it('refuses a tenant without an organisation id', () => {
    expect(() => tenantSql({ organisationId: undefined as unknown as number })).toThrow(/not an organisation id/);
    expect(() => tenantSql({ organisationId: 0 })).toThrow(/not an organisation id/);
  });

  it('composes fragments: nested values are numbered where they land, raw text is inserted as it is', () => {
    const filters = [sql`c.approved = ${true}`, sql`c.created_at >= ${'2026-01-01'}::date`];
    const order = sql.raw('c.amount DESC');
    const q = tenantSql(
      caller,
    )`SELECT ${sql.raw('c.id')} FROM claims c WHERE ${sql.join([tenantScope('c'), ...filters], ' AND ')} ORDER BY ${order} LIMIT ${10}`;
    expect(q.text).toBe(
      'SELECT c.id FROM claims c WHERE c.organisation_id = $1 AND c.approved = $2 AND c.created_at >= $3::date ORDER BY c.amount DESC LIMIT $4',
    );
    expect(q.values).toEqual([7, true, '2026-01-01', 10]);
  });

  it('counts a scope inside a fragment', () => {
    const where = sql`${tenantScope('f')} AND f.id = ${9}`;
    expect(tenantSql(caller)`SELECT * FROM files f WHERE ${where}`).toEqual({
      text: 'SELECT * FROM files f WHERE f.organisation_id = $1 AND f.id = $2',
      values: [7, 9],
    });
  });

  it('gives the same text for the same shape, whatever the values (one prepared statement per query)', () => {
    const build = (id: number, org: number) =>
      tenantSql({ organisationId: org })`SELECT * FROM t x WHERE ${tenantScope('x')} AND x.id = ${id}`;
    expect(build(1, 7).text).toBe(build(2, 8).text);
  });

  it('joins no fragments into nothing, and refuses an alias that is not a plain name', () => {
    expect(tenantSql(caller)`SELECT 1 WHERE ${tenantScope()}${sql.join([], ' AND ')}`.text).toBe(
      'SELECT 1 WHERE organisation_id = $1',
    );
    expect(() => tenantScope('x; DROP TABLE files')).toThrow(/not an alias/);
  });
});

import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';

/** scripts/check-boundaries.mjs (npm run lint): plain Node, so it is loaded as it is, untyped. */
interface Scanner {
  sqlTableNames(text: string): { table: string; at: number }[];
  tableReferences(
    source: string,
    file?: string,
  ): { table: string; line: number; how: 'sql' | 'projection' | 'property' }[];
  createdTables(migration: string): string[];
  checkBoundaries(tree: {
    owners: Record<string, string[]>;
    contexts: string[];
    migrations: { file: string; text: string }[];
    sources: { file: string; context: string; text: string }[];
  }): string[];
  checkTree(root: string): string[];
}
const scanner = (): Promise<Scanner> =>
  import(join(process.cwd(), 'scripts', 'check-boundaries.mjs')) as Promise<Scanner>;
const names = async (text: string) => (await scanner()).sqlTableNames(text).map((n) => n.table);

describe('check-boundaries: SQL table names', () => {
  it('finds the tables after FROM, JOIN, INTO, UPDATE, DELETE FROM, TRUNCATE, LOCK, DDL and REFERENCES', async () => {
    expect(
      await names('SELECT * FROM claims c JOIN users owner ON owner.id = c.user_id LEFT JOIN teams t ON true'),
    ).toEqual(['claims', 'users', 'teams']);
    expect(await names('INSERT INTO events (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET x = 1')).toEqual(['events']);
    expect(await names('UPDATE ONLY users SET x = 1; DELETE FROM sessions WHERE id = $1')).toEqual([
      'users',
      'sessions',
    ]);
    expect(
      await names(
        'TRUNCATE TABLE a, b; LOCK TABLE c; DROP TABLE IF EXISTS d; ALTER TABLE e ADD f bigint REFERENCES users(id)',
      ),
    ).toEqual(['a', 'b', 'c', 'd', 'e', 'users']);
  });

  it('reads comma lists, schema-qualified and quoted names, any case', async () => {
    expect(await names('select 1 from claims c, public.users AS u, "Teams" t where true')).toEqual([
      'claims',
      'users',
      'Teams',
    ]);
  });

  it('skips functions, subqueries, columns after EXTRACT … FROM, catalog tables and SQL strings and comments', async () => {
    expect(
      await names(
        `SELECT * FROM unnest($1::bigint[], $2::text[]) AS owner(id, name), generate_series(1, 3) g JOIN (SELECT 1 FROM x) s ON true`,
      ),
    ).toEqual(['x']);
    expect(
      await names(
        `SELECT extract(epoch FROM e.date), 'FROM users' -- FROM roles\n FROM pg_catalog.pg_class /* JOIN teams */`,
      ),
    ).toEqual([]);
  });
});

describe('check-boundaries: references in TypeScript', () => {
  const source = [
    'const FROM = `claims c JOIN users owner ON owner.id = c.user_id`;', // 1
    '// SELECT * FROM roles: a comment is not code', // 2
    'const q = `SELECT ${COLUMNS} FROM ${FROM}', // 3
    '  JOIN teams t ON t.id = ${id} WHERE x`;', // 4
    "const p = [op.upsert('sessions', ['id'], {}), op.update(\"files\", {}, {})];", // 5
    "class P { readonly tables = ['expenses']; cache = new ReadCache(feed, [{ table: 'roles' }]); }", // 6
    "throw new Error('Remove it FROM claims first');", // 7
  ].join('\n');

  it('gives each table with its line and how it is named, comments excepted', async () => {
    expect((await scanner()).tableReferences(source)).toEqual([
      { table: 'claims', line: 1, how: 'sql' },
      { table: 'users', line: 1, how: 'sql' },
      { table: 'teams', line: 4, how: 'sql' },
      { table: 'sessions', line: 5, how: 'projection' },
      { table: 'files', line: 5, how: 'projection' },
      { table: 'expenses', line: 6, how: 'property' },
      { table: 'roles', line: 6, how: 'property' },
      { table: 'claims', line: 7, how: 'sql' },
    ]);
  });

  it('reads the tables a migration creates', async () => {
    expect(
      (await scanner()).createdTables(
        'CREATE TABLE a (id bigint); CREATE UNLOGGED TABLE b (k text); create table if not exists c ()',
      ),
    ).toEqual(['a', 'b', 'c']);
  });
});

describe('check-boundaries: the check', () => {
  const tree = (
    sources: { file: string; context: string; text: string }[],
    owners: Record<string, string[]> = { identity: ['users'], expenses: ['claims'] },
  ) => ({
    owners,
    contexts: ['expenses', 'identity'],
    migrations: [{ file: 'migrations/1-x.ts', text: 'CREATE TABLE users (); CREATE TABLE claims ();' }],
    sources,
  });

  it('fails naming file, line, table and owner when a context names a table it does not own', async () => {
    const { checkBoundaries } = await scanner();
    const problems = checkBoundaries(
      tree([
        {
          file: 'libs/expenses/src/a.ts',
          context: 'expenses',
          text: 'const a = `SELECT * FROM claims`;\nconst b = `SELECT * FROM users`;',
        },
        {
          file: 'libs/identity/src/b.ts',
          context: 'identity',
          text: 'const b = `SELECT * FROM users JOIN unknown_cte ON true`;',
        },
      ]),
    );
    expect(problems).toEqual([
      'libs/expenses/src/a.ts:2: expenses names table users, owned by identity; ask identity through #app/identity instead',
    ]);
  });

  it('fails on an unowned or twice-owned table, an owned table no migration creates, and an unlisted context', async () => {
    const { checkBoundaries } = await scanner();
    const problems = checkBoundaries({
      ...tree([], { identity: ['users', 'claims', 'ghosts'], expenses: ['claims'] }),
      contexts: ['expenses', 'identity', 'reports'],
      migrations: [
        { file: 'migrations/1-x.ts', text: 'CREATE TABLE users (); CREATE TABLE claims (); CREATE TABLE orphans ();' },
      ],
    });
    expect(problems).toEqual([
      'scripts/check-boundaries.json: table claims is listed by both identity and expenses',
      'scripts/check-boundaries.json: context reports (libs/reports) is not listed; list it, with [] if it owns no table',
      'migrations/1-x.ts: creates table orphans, which no context owns in scripts/check-boundaries.json',
      'scripts/check-boundaries.json: table ghosts (identity) is created by no migration',
    ]);
  });

  it('passes on this repository', async () => {
    expect((await scanner()).checkTree(process.cwd())).toEqual([]);
  });
});

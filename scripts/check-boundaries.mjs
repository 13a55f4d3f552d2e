#!/usr/bin/env node
/**
 * Context boundaries (npm run lint): a context's code names only the tables it owns.
 *
 * scripts/check-boundaries.json lists each context's tables (libs/<context>). This check fails,
 * naming file, line and table, when
 *   - a context's source (libs/<context>/src/**\/*.ts, tests excepted: fixtures may set up any
 *     table) names a table another context owns, in SQL (FROM, JOIN, INTO, UPDATE, DELETE FROM,
 *     TRUNCATE, LOCK, TABLE, REFERENCES) or as a projection's or cache's table (`op.upsert('t', …)`,
 *     `tables = ['t']`, `{ table: 't' }`);
 *   - a migration creates a table nobody owns, a listed table no migration creates, a table is
 *     listed twice, or a context under libs/ is not listed.
 * Another context's data is reached through its exported API (`#app/<context>`), never its tables.
 *
 * Only string literals and templates are read as SQL (through TypeScript's own parser, so comments
 * never count), and only names of listed tables count: aliases, CTEs and columns are ignored.
 * A name built at run time (`FROM ${table}`, as the event store's replay does) is not seen.
 *
 * Plain Node, no dependency beyond the TypeScript compiler the build already uses.
 * Usage: node scripts/check-boundaries.mjs [--root <dir>]   (exit 0 clean, 1 with problems)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/** Keywords followed by a table name; FROM, TRUNCATE and LOCK take a comma-separated list. */
const KEYWORDS = new Set(['FROM', 'JOIN', 'INTO', 'UPDATE', 'TRUNCATE', 'LOCK', 'TABLE', 'REFERENCES']);
const LISTS = new Set(['FROM', 'TRUNCATE', 'LOCK']);
/** Words between the keyword and the name (`TRUNCATE TABLE ONLY x`, `DROP TABLE IF EXISTS x`). */
const MODIFIERS = new Set(['ONLY', 'IF', 'NOT', 'EXISTS', 'TABLE', 'LATERAL']);
/** Words that end a FROM entry: never a table or an alias. */
const RESERVED = new Set([
  'WHERE',
  'ON',
  'USING',
  'JOIN',
  'LEFT',
  'RIGHT',
  'INNER',
  'OUTER',
  'FULL',
  'CROSS',
  'NATURAL',
  'GROUP',
  'ORDER',
  'LIMIT',
  'OFFSET',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'SET',
  'VALUES',
  'SELECT',
  'RETURNING',
  'WINDOW',
  'HAVING',
  'FOR',
  'AND',
  'OR',
  'AS',
  'DEFAULT',
  'IN',
  'WITH',
  'ONLY',
  'LATERAL',
  'TABLESAMPLE',
  'FETCH',
]);
/** Words that start a join, after a fragment's leading table and alias. */
const JOINS = new Set(['JOIN', 'LEFT', 'RIGHT', 'INNER', 'FULL', 'CROSS', 'NATURAL']);
const TEST_FILE = /\.(spec|int-spec|e2e-spec)\.ts$/;

/** SQL tokens with their offsets: words (quoted or not), numbers, quoted strings, single characters. */
function tokens(text) {
  const out = [];
  const re =
    /\s+|--[^\n]*|\/\*[\s\S]*?\*\/|"((?:[^"]|"")+)"|([A-Za-z_][A-Za-z0-9_$]*)|\d+(?:\.\d+)?|'(?:[^']|'')*'|([\s\S])/g;
  for (let m; (m = re.exec(text));) {
    if (m[1] !== undefined) out.push({ word: m[1].replace(/""/g, '"'), quoted: true, at: m.index + 1 });
    else if (m[2] !== undefined) out.push({ word: m[2], upper: m[2].toUpperCase(), at: m.index });
    else if (m[3] !== undefined && !/\s/.test(m[3])) out.push({ punct: m[3], at: m.index });
    else if (!/^\s|^--|^\/\*/.test(m[0])) out.push({ other: m[0], at: m.index });
  }
  return out;
}

/** Table names in one piece of SQL text: `[{ table, at }]`, `at` an offset into `text`. */
export function sqlTableNames(text) {
  const t = tokens(text);
  const found = [];
  const isWord = (k) => t[k] && t[k].word !== undefined;
  const isPunct = (k, p) => t[k] && t[k].punct === p;
  const skipParens = (k) => {
    for (let depth = 0; k < t.length; k++) {
      if (isPunct(k, '(')) depth++;
      else if (isPunct(k, ')') && --depth === 0) return k + 1;
    }
    return k;
  };
  // A fragment that starts with a table and joins on (`claims c JOIN …`, spliced in after a FROM).
  const a = t[1]?.upper && !JOINS.has(t[1].upper) ? 2 : 1;
  if (isWord(0) && !(t[0].upper && RESERVED.has(t[0].upper)) && t[a]?.upper && JOINS.has(t[a].upper))
    found.push({ table: t[0].word.toLowerCase(), at: t[0].at });
  for (let i = 0; i < t.length; i++) {
    const keyword = t[i].upper;
    if (!KEYWORDS.has(keyword)) continue;
    let k = i + 1;
    let last = i;
    for (;;) {
      while (t[k]?.upper && MODIFIERS.has(t[k].upper)) k++;
      if (isPunct(k, '('))
        k = skipParens(k); // a subquery
      else if (isWord(k) && !(t[k].upper && RESERVED.has(t[k].upper))) {
        let name = t[k];
        let qualified = false;
        if (isPunct(k + 1, '.') && isWord(k + 2)) {
          // public.users is users; e.date (EXTRACT(… FROM e.date)) or pg_catalog.x is not ours
          qualified = name.word.toLowerCase() !== 'public';
          name = t[k + 2];
          k += 2;
        }
        const call = isPunct(k + 1, '(') && (keyword === 'FROM' || keyword === 'JOIN');
        if (call)
          k = skipParens(k + 1); // unnest(…), generate_series(…)
        else {
          if (!qualified) found.push({ table: name.quoted ? name.word : name.word.toLowerCase(), at: name.at });
          last = k;
          k++;
        }
      } else break;
      if (!LISTS.has(keyword)) break;
      if (t[k]?.upper === 'AS') k++;
      if (isWord(k) && !(t[k].upper && RESERVED.has(t[k].upper))) k++; // an alias
      if (isPunct(k, '(')) k = skipParens(k); // alias column names: AS n(id, name)
      if (!isPunct(k, ',')) break;
      k++;
    }
    i = last; // on after the names read (TRUNCATE TABLE x is one reference, not two), into any parentheses
  }
  return found;
}

const PROJECTION_OPS = new Set(['upsert', 'update', 'delete']);

/**
 * Every table a TypeScript source names: `[{ table, line, how }]` (line 1-based). `how` is `sql`
 * for a name inside a string or template, `projection` for `op.upsert('t', …)` and the like,
 * `property` for `table: 't'` / `tables = ['t']`.
 */
export function tableReferences(sourceText, fileName = 'source.ts') {
  const sf = ts.createSourceFile(fileName, sourceText, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const refs = [];
  const lineOf = (pos) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const literal = (node) => ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);
  const named = (node, how) => {
    if (literal(node)) refs.push({ table: node.text, line: lineOf(node.getStart(sf)), how });
    else if (ts.isArrayLiteralExpression(node)) node.elements.forEach((e) => named(e, how));
  };
  const visit = (node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      // The text between the delimiters: ' " ` at either end, `${` before and `}` after a substitution.
      const start = node.getStart(sf) + 1;
      const end = node.getEnd() - (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) ? 2 : 1);
      for (const { table, at } of sqlTableNames(sourceText.slice(start, end)))
        refs.push({ table, line: lineOf(start + at), how: 'sql' });
    }
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      node.expression.expression.text === 'op' &&
      PROJECTION_OPS.has(node.expression.name.text) &&
      node.arguments[0]
    ) {
      named(node.arguments[0], 'projection');
    }
    if (
      (ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node)) &&
      node.initializer &&
      !ts.isComputedPropertyName(node.name) &&
      ['table', 'tables'].includes(node.name.getText(sf))
    ) {
      named(node.initializer, 'property');
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return refs;
}

/** Tables a migration creates (`CREATE [UNLOGGED] TABLE [IF NOT EXISTS] name`). */
export function createdTables(migrationText) {
  const names = [];
  for (const m of migrationText.matchAll(
    /CREATE\s+(?:UNLOGGED\s+|TEMP(?:ORARY)?\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(?:public\.)?"?([A-Za-z_][A-Za-z0-9_]*)"?/gi,
  )) {
    names.push(m[1].toLowerCase());
  }
  return names;
}

/**
 * The problems, as `file:line: message` lines (paths as given), for
 * `owners` (context → tables), `contexts` (the folders under libs/), `migrations` [{ file, text }]
 * and `sources` [{ file, context, text }].
 */
export function checkBoundaries({ owners, contexts, migrations, sources }) {
  const problems = [];
  const ownerOf = new Map();
  for (const [context, tables] of Object.entries(owners)) {
    if (context.startsWith('//')) continue;
    for (const table of tables) {
      if (ownerOf.has(table))
        problems.push(
          `scripts/check-boundaries.json: table ${table} is listed by both ${ownerOf.get(table)} and ${context}`,
        );
      else ownerOf.set(table, context);
    }
  }
  for (const context of contexts) {
    if (!Object.hasOwn(owners, context))
      problems.push(
        `scripts/check-boundaries.json: context ${context} (libs/${context}) is not listed; list it, with [] if it owns no table`,
      );
  }
  const created = new Set();
  for (const { file, text } of migrations) {
    for (const table of createdTables(text)) {
      created.add(table);
      if (!ownerOf.has(table))
        problems.push(`${file}: creates table ${table}, which no context owns in scripts/check-boundaries.json`);
    }
  }
  for (const table of ownerOf.keys()) {
    if (!created.has(table))
      problems.push(`scripts/check-boundaries.json: table ${table} (${ownerOf.get(table)}) is created by no migration`);
  }
  for (const { file, context, text } of sources) {
    for (const { table, line, how } of tableReferences(text, file)) {
      const owner = ownerOf.get(table);
      if (owner && owner !== context) {
        const what = how === 'sql' ? 'names table' : how === 'projection' ? 'projects into table' : 'watches table';
        problems.push(
          `${file}:${line}: ${context} ${what} ${table}, owned by ${owner}; ask ${owner} through #app/${owner} instead`,
        );
      }
    }
  }
  return [...new Set(problems)];
}

function tsFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...tsFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out.sort();
}

/** Reads the tree under `root` and checks it. */
export function checkTree(root) {
  const rel = (path) => relative(root, path).split(sep).join('/');
  const owners = JSON.parse(readFileSync(join(root, 'scripts', 'check-boundaries.json'), 'utf8'));
  const contexts = readdirSync(join(root, 'libs'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const migrations = tsFiles(join(root, 'migrations')).map((path) => ({
    file: rel(path),
    text: readFileSync(path, 'utf8'),
  }));
  const sources = contexts.flatMap((context) =>
    tsFiles(join(root, 'libs', context, 'src'))
      .filter((path) => !TEST_FILE.test(path))
      .map((path) => ({ file: rel(path), context, text: readFileSync(path, 'utf8') })),
  );
  return checkBoundaries({ owners, contexts, migrations, sources });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--root');
  const root = at > 0 ? process.argv[at + 1] : fileURLToPath(new URL('..', import.meta.url));
  const problems = checkTree(root);
  if (problems.length > 0) {
    console.error(
      `check-boundaries: ${problems.length} problem${problems.length === 1 ? '' : 's'} (a context names only its own tables: scripts/check-boundaries.json)`,
    );
    for (const p of problems) console.error(`  ${p}`);
    process.exit(1);
  }
}

import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import ts from 'typescript';
import { personalData } from '#app/event-store';
// Each context's declarations (docs/privacy.md, "Sealed fields in the log"), made when it loads.
import '#app/expenses';
import '#app/files';
import '#app/identity';
import '#app/organisation';
import '#app/rotas';
import '#app/webhooks';

/**
 * Field names that look like a person's data. Matched case-insensitively anywhere in the name
 * (`displayName`, `financeEmail`, `approvalNote`), at any depth of an event's data.
 */
const LOOKS_PERSONAL =
  /e-?mail|name|phone|mobile|title|description|note|address|password|secret|agent|destination|birth|comment|message|reason_text/i;

/** Every `*.events.ts` under libs/. */
function eventFiles(dir = join(process.cwd(), 'libs')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? d.name === 'node_modules'
        ? []
        : eventFiles(join(dir, d.name))
      : d.name.endsWith('.events.ts')
        ? [join(dir, d.name)]
        : [],
  );
}

/**
 * Every event type of the `*.events.ts` unions (the exported type aliases), with the dotted paths
 * of its data's fields whose names look personal (arrays transparent, `*` for a record's keys).
 */
function personalLookingFields(files: readonly string[]): Map<string, Set<string>> {
  const program = ts.createProgram([...files], {
    strict: true,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const found = new Map<string, Set<string>>();

  const walk = (type: ts.Type, path: string[], out: Set<string>, depth: number): void => {
    if (depth > 8) return;
    if (type.isUnion()) {
      for (const t of type.types) walk(t, path, out, depth);
      return;
    }
    if (checker.isArrayType(type) || checker.isTupleType(type)) {
      for (const t of checker.getTypeArguments(type as ts.TypeReference)) walk(t, path, out, depth + 1);
      return;
    }
    if (!(type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection))) return;
    for (const info of checker.getIndexInfosOfType(type)) walk(info.type, [...path, '*'], out, depth + 1);
    for (const prop of checker.getPropertiesOfType(type)) {
      const at = [...path, prop.name];
      if (LOOKS_PERSONAL.test(prop.name)) out.add(at.join('.'));
      const decl = prop.valueDeclaration ?? prop.declarations?.[0];
      if (decl) walk(checker.getTypeOfSymbolAtLocation(prop, decl), at, out, depth + 1);
    }
  };

  for (const file of files) {
    const source = program.getSourceFile(file)!;
    for (const statement of source.statements) {
      if (!ts.isTypeAliasDeclaration(statement)) continue;
      const alias = checker.getTypeAtLocation(statement.name);
      for (const member of alias.isUnion() ? alias.types : [alias]) {
        const typeProp = member.getProperty('type');
        const dataProp = member.getProperty('data');
        if (!typeProp || !dataProp) continue;
        const typeType = checker.getTypeOfSymbolAtLocation(typeProp, statement);
        const names = (typeType.isUnion() ? typeType.types : [typeType])
          .filter((t) => t.isStringLiteral())
          .map((t) => (t as ts.StringLiteralType).value);
        const fields = new Set<string>();
        walk(checker.getTypeOfSymbolAtLocation(dataProp, statement), [], fields, 0);
        for (const name of names) {
          const set = found.get(name) ?? new Set<string>();
          for (const f of fields) set.add(f);
          found.set(name, set);
        }
      }
    }
  }
  return found;
}

describe('personal data registry', () => {
  const files = eventFiles();
  const fields = personalLookingFields(files);

  it('finds the event types of every context', () => {
    expect(files.map((f) => relative(process.cwd(), f)).sort()).toEqual(
      expect.arrayContaining([
        'libs/expenses/src/expenses.events.ts',
        'libs/files/src/files.events.ts',
        'libs/identity/src/directory/directory.events.ts',
        'libs/rotas/src/rotas.events.ts',
        'libs/webhooks/src/webhooks.events.ts',
      ]),
    );
    for (const type of [
      'identity.UserRegistered',
      'expenses.ClaimRejected',
      'rotas.ShiftAttendanceRecorded',
      'files.FileUploaded',
    ])
      expect(fields.has(type)).toBe(true);
    expect([...fields.get('identity.UserRegistered')!]).toEqual(
      expect.arrayContaining(['email', 'displayName', 'passwordHash', 'title', 'phone', 'totpSecret']),
    );
  });

  it('names every field that looks personal, as a user’s (sealed) or as the organisation’s', () => {
    const unnamed = [...fields].flatMap(([type, paths]) =>
      [...paths].filter((p) => !personalData.names(type, p)).map((p) => `${type}: ${p}`),
    );
    if (process.env.SHOW_FIELDS) console.log([...fields].map(([t, p]) => `${t}: ${[...p].join(', ')}`).join('\n'));
    expect(unnamed).toEqual([]);
  });

  it('declares only fields the events have', () => {
    const unknown = personalData
      .personalTypes()
      .flatMap((type) =>
        [...(personalData.fieldsOf(type)?.names ?? [])]
          .filter((n) => fields.has(type) && !fields.get(type)!.has(n) && LOOKS_PERSONAL.test(n))
          .map((n) => `${type}: ${n}`),
      );
    expect(unknown).toEqual([]);
    for (const type of personalData.personalTypes()) expect(fields.has(type)).toBe(true);
  });
});

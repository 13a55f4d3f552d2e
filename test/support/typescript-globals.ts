import ts from 'typescript';

/**
 * The global names, types and values, a TypeScript client sees with the libraries of a browser
 * build (ES2023 and the DOM): `File`, `Blob`, `Image`, `Record`, `Node`… A generated module that
 * declares one of them shadows it (docs/http-conventions.md#generated-clients). Read from
 * TypeScript's own lib files, so the list is the compiler's, not ours.
 */
export function typescriptGlobals(): Set<string> {
  const options: ts.CompilerOptions = {
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    noEmit: true,
  };
  const file = '/globals.ts';
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists } = host;
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(file, '', language) : getSourceFile.call(host, name, language, ...rest);
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  const program = ts.createProgram([file], options, host);
  const symbols = program
    .getTypeChecker()
    .getSymbolsInScope(program.getSourceFile(file)!, ts.SymbolFlags.Type | ts.SymbolFlags.Value);
  return new Set(symbols.map((s) => s.name));
}

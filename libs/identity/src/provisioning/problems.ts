import { ValidationError } from '#app/platform';

/** A place in a file: object keys and list positions, as zod reports them. */
export type FilePath = readonly (string | number)[];

/** One thing wrong with a file, at its place. */
export interface Problem {
  readonly path: FilePath;
  readonly message: string;
}

/**
 * A file refused, with every problem found in it (provisioning.md): each problem is one line
 * naming its place in the file and, for list entries, the entry's key, so an administrator fixes
 * them all in one go. Nothing was written.
 */
export class ProvisioningRefused extends ValidationError {
  constructor(
    readonly problems: string[],
    what = 'The provisioning file',
  ) {
    super(
      { file: problems },
      `${what} was refused (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
}

/**
 * The problems as lines, in the order of the file: by section and entry position, then by field
 * in `order` (the order the documentation lists them), shorter paths first; problems at one place,
 * or at names `order` does not know, keep the order they were found in.
 */
export function describeProblems(input: unknown, problems: readonly Problem[], order: readonly string[]): string[] {
  const rank = (step: string | number) =>
    typeof step === 'number' ? step : order.includes(step) ? order.indexOf(step) : order.length;
  const compare = (a: FilePath, b: FilePath): number => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const [x, y] = [a[i]!, b[i]!];
      if (x === y) continue;
      // Names outside `order` (settings, unknown keys) keep the order they were found in.
      return rank(x) - rank(y);
    }
    return a.length - b.length;
  };
  return [...problems].sort((a, b) => compare(a.path, b.path)).map((p) => `${where(input, p.path)}: ${p.message}`);
}

/** `users[2] "bob".roles[0].team`: the path, with each list entry's key beside its position. */
export function where(input: unknown, path: FilePath): string {
  let label = '';
  let node: unknown = input;
  for (const step of path) {
    node = node && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[step] : undefined;
    if (typeof step === 'number') {
      const k = node && typeof node === 'object' ? (node as { key?: unknown }).key : undefined;
      label += `[${step}]${typeof k === 'string' ? ` "${k}"` : ''}`;
    } else label += `${label ? '.' : ''}${String(step)}`;
  }
  return label || '(file)';
}

/** Zod's issues as problems. */
export function problemsOf(issues: readonly { path: PropertyKey[]; message: string }[]): Problem[] {
  return issues.map((i) => ({
    path: i.path.filter((s): s is string | number => typeof s !== 'symbol'),
    message: i.message,
  }));
}

/** The entries of a list in a file that is not (yet) known to be valid: objects only, with their positions. */
export function entriesOf(list: unknown): [number, Record<string, unknown>][] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((item, i): [number, Record<string, unknown>][] =>
    item && typeof item === 'object' && !Array.isArray(item) ? [[i, item as Record<string, unknown>]] : [],
  );
}

/** The object at `key` of a file that is not (yet) known to be valid, or undefined. */
export function objectAt(node: unknown, key: string): Record<string, unknown> | undefined {
  const value =
    node && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * The violations the OpenAPI contract check (openapi-contract.ts) records, kept apart from it so
 * the Jest setup file that reports them loads nothing heavy into unit test files.
 */

export interface ContractViolation {
  readonly method: string;
  readonly url: string;
  readonly route: string;
  readonly status: number;
  readonly problem: string;
}

/** Where violations wait for the setup file's afterEach; on globalThis so every module instance shares it. */
const VIOLATIONS = Symbol.for('uvol.openapi-contract.violations');
type Global = typeof globalThis & { [VIOLATIONS]?: ContractViolation[] };

export function recordedViolations(): ContractViolation[] {
  return ((globalThis as Global)[VIOLATIONS] ??= []);
}

/** Takes the violations recorded so far, leaving none. */
export function takeViolations(): ContractViolation[] {
  return recordedViolations().splice(0);
}

export function formatViolations(violations: readonly ContractViolation[]): string {
  const lines = violations.map((v) => `  ${v.method} ${v.url} (route ${v.route}) → ${v.status}: ${v.problem}`);
  return `The service broke its OpenAPI document (test/support/openapi-contract.ts) ${violations.length} time(s):\n${lines.join('\n')}`;
}

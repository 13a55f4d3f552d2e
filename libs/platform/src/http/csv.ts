/** A cell a spreadsheet would run as a formula: its first character. */
const FORMULA = /^[=+\-@\t\r]/;
/** A plain number (-12.50) starts with '-' but runs nothing: it stays a number. */
const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * RFC 4180 CSV (CRLF lines, a cell with a quote, comma or line break quoted, quotes doubled) with a
 * header line of `columns`. A cell a spreadsheet would run as a formula (starting with `=`, `+`,
 * `-`, `@`, a tab or a CR) gets a leading apostrophe, unless it is a plain number (OWASP's CSV
 * injection advice); the `text` columns (names) hold no numbers, so theirs get it always. Used by
 * the claims export and the volunteer hours report.
 */
export function toCsv(
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
  { text = [] }: { readonly text?: readonly string[] } = {},
): string {
  const cell = (v: unknown, column: string) => {
    let s = v === null || v === undefined ? '' : String(v);
    if (FORMULA.test(s) && (text.includes(column) || !NUMBER.test(s))) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c], c)).join(','))].join('\r\n') + '\r\n';
}

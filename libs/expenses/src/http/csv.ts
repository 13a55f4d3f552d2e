/** RFC 4180 CSV; a cell that a spreadsheet would run as a formula is quoted with a leading apostrophe. */
export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const cell = (v: unknown) => {
    let s = v === null || v === undefined ? '' : String(v);
    if (/^[=+\-@\t\r]/.test(s) && !/^-?\d/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\r\n') + '\r\n';
}

export const CLAIM_CSV_COLUMNS = [
  'claim_id',
  'claimant',
  'authoriser',
  'approved',
  'approved_at',
  'submitted',
  'submitted_at',
  'claim_amount',
  'expense_id',
  'date',
  'type',
  'description',
  'miles',
  'passengers',
  'amount',
] as const;

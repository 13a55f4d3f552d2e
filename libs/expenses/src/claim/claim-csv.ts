/** The claims export's columns (the CSV itself: platform's toCsv). */
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

/**
 * Event shapes shared by the benchmarks: an expense-claim-like aggregate, ten events a stream.
 * The SQL generator of the replay benchmark builds the same shape server-side (see replay.ts).
 */

export const EVENT_TYPES = [
  'bench.ClaimOpened',
  'bench.LineAdded',
  'bench.LineAdded',
  'bench.LineAdded',
  'bench.LineAmended',
  'bench.LineAdded',
  'bench.ReceiptAttached',
  'bench.ClaimSubmitted',
  'bench.ClaimApproved',
  'bench.ClaimPaid',
] as const;

export const HANDLED_TYPES = [...new Set(EVENT_TYPES)];

const CATEGORIES = ['travel', 'meals', 'lodging', 'equipment', 'training'];

/** Roughly 330 bytes of JSON, nested one level, as a typical domain event. */
export function eventData(i: number): Record<string, unknown> {
  return {
    claimId: `claim-${Math.floor(i / 10)}`,
    lineId: i,
    amount: ((i * 7919) % 100_000) / 100,
    currency: 'EUR',
    category: CATEGORIES[i % CATEGORIES.length],
    description: `Expense line ${i}: taxi from the airport to the client site`,
    incurredOn: `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
    vat: { rate: 21, amount: (((i * 7919) % 100_000) / 100) * 0.21 },
    submittedBy: 1000 + (i % 50),
    tags: ['client-a', `project-${i % 17}`],
  };
}

export function eventMetadata(correlationId: string) {
  return { organisationId: 7, actorId: 42, correlationId };
}

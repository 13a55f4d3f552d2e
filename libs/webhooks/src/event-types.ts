/**
 * The public event types and the internal events each comes from: the one table of
 * docs/webhooks.md#event-types. `record` says which record the `data` is and which id of the
 * internal event names it.
 */
export type RecordKind = 'shift' | 'repeating_shift' | 'rota' | 'claim' | 'expense' | 'user';

export interface PublicEventSource {
  readonly publicType: string;
  readonly record: RecordKind;
  /** The internal event's data field holding the record's id. */
  readonly idField: 'id' | 'expenseId' | 'userId';
  /** Added to the record: `{ cancelled: true }`, `{ deleted: true }`. */
  readonly extra?: Record<string, true>;
}

const src = (
  publicType: string,
  record: RecordKind,
  extra?: Record<string, true>,
  idField: 'id' | 'expenseId' | 'userId' = 'id',
) => ({
  publicType,
  record,
  idField,
  ...(extra && { extra }),
});

export const EVENT_SOURCES: Readonly<Record<string, PublicEventSource>> = {
  'rotas.ShiftBooked': src('shift.booked', 'shift'),
  'rotas.ShiftMoved': src('shift.changed', 'shift'),
  'rotas.ShiftSeriesChanged': src('shift.changed', 'shift'),
  // A shift changing hands (take-over, swap); a stand-in request alone is no change of the shift's.
  'rotas.ShiftHandedOver': src('shift.changed', 'shift'),
  'rotas.ShiftCancelled': src('shift.cancelled', 'shift', { cancelled: true }),
  // A clear is a recording too: the Shift then carries `attendance: null` (docs/webhooks.md#event-types).
  'rotas.ShiftAttendanceRecorded': src('attendance.recorded', 'shift'),
  'rotas.ShiftAttendanceCleared': src('attendance.recorded', 'shift'),
  'rotas.RepeatingShiftStarted': src('repeating_shift.started', 'repeating_shift'),
  'rotas.RepeatingShiftEnded': src('repeating_shift.ended', 'repeating_shift'),
  'rotas.RotaCreated': src('rota.created', 'rota'),
  'rotas.RotaChanged': src('rota.changed', 'rota'),
  'rotas.RotaTimeslotsChanged': src('rota.changed', 'rota'),
  'rotas.RotaPatternReplaced': src('rota.changed', 'rota'),
  'rotas.RotaEnded': src('rota.changed', 'rota'),
  'rotas.RotaClosed': src('rota.changed', 'rota'),
  'rotas.RotaReopened': src('rota.changed', 'rota'),
  'rotas.RotaContactAdded': src('rota.changed', 'rota'),
  'rotas.RotaContactRemoved': src('rota.changed', 'rota'),
  'rotas.RotaArchived': src('rota.archived', 'rota'),
  'expenses.ClaimCreated': src('claim.created', 'claim'),
  'expenses.ClaimApproved': src('claim.approved', 'claim'),
  'expenses.ClaimRejected': src('claim.rejected', 'claim'),
  'expenses.ClaimSubmitted': src('claim.submitted', 'claim'),
  'expenses.ExpenseRecorded': src('expense.created', 'expense'),
  'expenses.ExpenseChanged': src('expense.updated', 'expense'),
  'expenses.AttachmentAdded': src('expense.updated', 'expense', undefined, 'expenseId'),
  'expenses.AttachmentRemoved': src('expense.updated', 'expense', undefined, 'expenseId'),
  'expenses.ExpenseClaimed': src('expense.updated', 'expense', undefined, 'expenseId'),
  'expenses.ExpenseReleased': src('expense.updated', 'expense', undefined, 'expenseId'),
  'expenses.ExpenseDeleted': src('expense.deleted', 'expense', { deleted: true }),
  // docs/privacy.md#anonymising-a-user: `{ id }` only, so subscribers can erase their copies.
  'identity.UserAnonymised': src('user.anonymised', 'user', undefined, 'userId'),
};

/** `ping` is sent on request only (POST /api/webhooks/{id}/ping). */
export const PING = 'ping';

/** Every name an endpoint may subscribe to, in the order docs/webhooks.md lists them. */
export const PUBLIC_EVENT_TYPES: readonly string[] = [
  ...new Set(Object.values(EVENT_SOURCES).map((s) => s.publicType)),
  PING,
];

export const ALL_EVENTS = '*';

/** Whether an endpoint subscribed to `events` wants `publicType` (ping goes to whoever asks for it). */
export function subscribes(events: readonly string[], publicType: string): boolean {
  return events.includes(ALL_EVENTS) || events.includes(publicType);
}

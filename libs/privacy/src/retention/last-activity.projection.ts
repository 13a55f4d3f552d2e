import { Injectable } from '@nestjs/common';
import { actorUserId, AsProjection, defineProjection, op, type ProjectionOp, type StoredEvent } from '#app/event-store';

/*
 * The retention sweep's read model (docs/privacy.md#retention): each user's last activity, kept as
 * the events come, so a sweep reads two small tables and never the log. It listens to other
 * contexts' events by type string and declares locally the little of their shapes it reads.
 */

const ACTIVITY = 'retention_activity';
const SHIFTS = 'retention_shifts';

type Registered = { type: 'identity.UserRegistered'; data: { id: number; organisationId: number } };
type LoggedIn = { type: 'identity.SessionStarted'; data: { userId: number; organisationId: number; issuedAt: string } };
type ShiftBooked = {
  type: 'rotas.ShiftBooked' | 'rotas.ShiftMoved';
  data: { id: number; organisationId: number; userId: number; end: string };
};
type ShiftCancelled = { type: 'rotas.ShiftCancelled'; data: { id: number } };
/** A shift taken over or swapped: the taker's from then on. */
type ShiftHandedOver = { type: 'rotas.ShiftHandedOver'; data: { id: number; toUserId: number } };
/** Every change to an expense or a claim; whose it is, is the event's actor. */
type FinanceChange = {
  type:
    | 'expenses.ExpenseRecorded'
    | 'expenses.ExpenseChanged'
    | 'expenses.ExpenseDeleted'
    | 'expenses.AttachmentAdded'
    | 'expenses.AttachmentRemoved'
    | 'expenses.ExpenseClaimed'
    | 'expenses.ExpenseReleased'
    | 'expenses.ClaimCreated'
    | 'expenses.ClaimChanged'
    | 'expenses.ClaimApproved'
    | 'expenses.ClaimRejected'
    | 'expenses.ClaimSubmitted';
  data: { organisationId: number };
};

export type LastActivityEvent = Registered | LoggedIn | ShiftBooked | ShiftCancelled | ShiftHandedOver | FinanceChange;

/** A change by a user to an expense or claim is their activity; the system's (a mail recorded) is nobody's. */
function financeChange({
  data,
  metadata,
  recordedAt,
}: StoredEvent<string, { organisationId: number }>): ProjectionOp[] {
  const userId = actorUserId(metadata);
  if (userId === null) return [];
  return [
    op.upsert(ACTIVITY, ['user_id'], {
      user_id: userId,
      organisation_id: data.organisationId,
      last_finance_change_at: recordedAt,
    }),
  ];
}

/**
 * Registration, log-ins and changes to expenses and claims: the latest of each (the log is
 * projected in order, so the last write is the latest). Booked shifts: one row each with its end,
 * moved with it and deleted when cancelled, so the last booked, not cancelled one is a max().
 */
@AsProjection()
@Injectable()
export class LastActivityProjection extends defineProjection<LastActivityEvent>({
  name: 'privacy.last-activity',
  version: 1,
  tables: [ACTIVITY, SHIFTS],
  on: {
    'identity.UserRegistered': ({ data: d, recordedAt }) => [
      op.upsert(ACTIVITY, ['user_id'], { user_id: d.id, organisation_id: d.organisationId, registered_at: recordedAt }),
    ],
    'identity.SessionStarted': ({ data: d }) => [
      op.upsert(ACTIVITY, ['user_id'], {
        user_id: d.userId,
        organisation_id: d.organisationId,
        last_login_at: d.issuedAt,
      }),
    ],
    'rotas.ShiftBooked': ({ data: d }) => [
      op.upsert(SHIFTS, ['shift_id'], {
        shift_id: d.id,
        organisation_id: d.organisationId,
        user_id: d.userId,
        ends_at: d.end,
      }),
    ],
    'rotas.ShiftMoved': ({ data: d }) => [op.update(SHIFTS, { shift_id: d.id }, { ends_at: d.end })],
    'rotas.ShiftCancelled': ({ data: d }) => [op.delete(SHIFTS, { shift_id: d.id })],
    'rotas.ShiftHandedOver': ({ data: d }) => [op.update(SHIFTS, { shift_id: d.id }, { user_id: d.toUserId })],
    'expenses.ExpenseRecorded': financeChange,
    'expenses.ExpenseChanged': financeChange,
    'expenses.ExpenseDeleted': financeChange,
    'expenses.AttachmentAdded': financeChange,
    'expenses.AttachmentRemoved': financeChange,
    'expenses.ExpenseClaimed': financeChange,
    'expenses.ExpenseReleased': financeChange,
    'expenses.ClaimCreated': financeChange,
    'expenses.ClaimChanged': financeChange,
    'expenses.ClaimApproved': financeChange,
    'expenses.ClaimRejected': financeChange,
    'expenses.ClaimSubmitted': financeChange,
  },
}) {}

import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '#app/platform';
import type { ShiftSwapEvent, SwapSideData } from '../rotas.events.js';

/** The swap's status as the API shows it (docs/rota-domain.md#swaps). */
export type SwapStatus = 'proposed' | 'accepted' | 'declined' | 'withdrawn' | 'expired';

/** A swap as its decisions see it (stream `rotas.ShiftSwap-<id>`); `expired` is never stored here. */
export interface SwapState {
  readonly id: number;
  readonly organisationId: number;
  readonly shift: SwapSideData;
  readonly with: SwapSideData;
  readonly proposedBy: number;
  readonly status: Exclude<SwapStatus, 'expired'>;
}

export function evolve(state: SwapState | null, event: ShiftSwapEvent): SwapState | null {
  switch (event.type) {
    case 'rotas.ShiftSwapProposed':
      return { ...event.data, status: 'proposed' };
    case 'rotas.ShiftSwapAccepted':
      return state && { ...state, status: 'accepted' };
    case 'rotas.ShiftSwapDeclined':
      return state && { ...state, status: 'declined' };
    case 'rotas.ShiftSwapWithdrawn':
      return state && { ...state, status: 'withdrawn' };
  }
}

/** A shift as a swap reads it (its stream's state, or its row). */
export interface SwapShift {
  readonly id: number;
  readonly organisationId: number;
  readonly rotaId: number;
  readonly teamId: number;
  readonly userId: number;
  readonly start: string;
  readonly end: string;
  readonly cancelled: boolean;
}

/** What a swap decision knows of the volunteers and rotas beyond the streams (read after the gates). */
export interface SwapStanding {
  /** Rotas by id: whether volunteers may book themselves on it. */
  readonly selfManage: ReadonlyMap<number, boolean>;
  /** Users by id: on hold, and the teams whose rotas they see (absent: no longer a user). */
  readonly volunteers: ReadonlyMap<number, { readonly onHold: boolean; readonly seen: ReadonlySet<number> }>;
  /** The read table recorded the swap expired (a volunteer put on hold: docs/rota-domain.md#swaps). */
  readonly recordedExpired: boolean;
}

/** Why a proposed swap has expired (docs/rota-domain.md#swaps), or null while it stands. */
export function swapExpiry(
  swap: SwapState,
  shifts: { readonly shift: SwapShift | null; readonly with: SwapShift | null },
  standing: SwapStanding,
  now: number,
): string | null {
  if (standing.recordedExpired) return 'A volunteer of this swap was put on hold.';
  for (const side of ['shift', 'with'] as const) {
    const asProposed = swap[side];
    const current = shifts[side];
    if (Date.parse(asProposed.start) <= now) return 'A shift of this swap has started.';
    if (!current || current.cancelled) return 'A shift of this swap was cancelled.';
    if (
      Date.parse(current.start) !== Date.parse(asProposed.start) ||
      Date.parse(current.end) !== Date.parse(asProposed.end)
    )
      return 'A shift of this swap has changed its times.';
    if (current.userId !== asProposed.userId) return 'A shift of this swap has changed hands.';
    if (!standing.selfManage.get(asProposed.rotaId)) return 'A rota of this swap is no longer self-managed.';
  }
  // Each volunteer must still be able to book the shift they would gain.
  for (const [userId, gains] of [
    [swap.with.userId, swap.shift],
    [swap.shift.userId, swap.with],
  ] as const) {
    const volunteer = standing.volunteers.get(userId);
    if (!volunteer) return 'A volunteer of this swap is no longer in the organisation.';
    if (volunteer.onHold) return 'A volunteer of this swap was put on hold.';
    if (!volunteer.seen.has(gains.teamId)) return 'A volunteer of this swap no longer sees the other rota.';
  }
  return null;
}

/** What the proposal is decided on. */
export interface ProposeSwap {
  readonly id: number;
  readonly organisationId: number;
  readonly callerId: number;
  /** The teams the proposer sees. */
  readonly seen: ReadonlySet<number>;
  readonly shift: SwapShift | null;
  readonly with: SwapShift | null;
  readonly selfManage: ReadonlyMap<number, boolean>;
}

const sideOf = (s: SwapShift): SwapSideData => ({
  shiftId: s.id,
  rotaId: s.rotaId,
  teamId: s.teamId,
  userId: s.userId,
  start: s.start,
  end: s.end,
});

/**
 * `POST /api/rota/shift-swaps` (docs/rota-domain.md#swaps): only the volunteer of `shift` proposes
 * (403); both shifts booked, not started, on self-managed rotas the proposer sees, of two different
 * volunteers (422 naming `shift` or `with`; an unknown id, `shift.id` or `with.id`).
 */
export function decideProposeSwap(p: ProposeSwap, now: number): ShiftSwapEvent[] {
  const known = (s: SwapShift | null): s is SwapShift => !!s && s.organisationId === p.organisationId;
  if (!known(p.shift)) throw new ValidationError({ 'shift.id': ['No such shift.'] });
  if (p.shift.userId !== p.callerId) throw new ForbiddenError('Only the volunteer of a shift may propose to swap it.');
  if (!known(p.with)) throw new ValidationError({ 'with.id': ['No such shift.'] });
  const errors: Record<string, string[]> = {};
  for (const [field, s] of [
    ['shift', p.shift],
    ['with', p.with],
  ] as const) {
    const problem = s.cancelled
      ? 'The shift is cancelled.'
      : Date.parse(s.start) <= now
        ? 'The shift has started.'
        : !p.seen.has(s.teamId)
          ? 'You cannot see this shift’s rota.'
          : !p.selfManage.get(s.rotaId)
            ? 'The shift’s rota is not self-managed.'
            : null;
    if (problem) errors[field] = [problem];
  }
  if (!errors.with && p.with.userId === p.shift.userId)
    errors.with = ['The two shifts must be of two different volunteers.'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return [
    {
      type: 'rotas.ShiftSwapProposed',
      data: {
        id: p.id,
        organisationId: p.organisationId,
        shift: sideOf(p.shift),
        with: sideOf(p.with),
        proposedBy: p.callerId,
      },
    },
  ];
}

/** The caller of an answer: who they are, and the teams whose rotas they manage. */
export interface SwapCaller {
  readonly userId: number;
  readonly organisationId: number;
  readonly manages: (teamId: number) => boolean;
}

export type SwapAnswer = 'accept' | 'decline' | 'withdraw';

/**
 * Who may answer (docs/rota-domain.md#swaps): accept, the volunteer of `with` as proposed or a
 * manager of both rotas; decline, the volunteer of `with`; withdraw, the proposer. Then 409 when the
 * swap is no longer proposed, expired included. 404 for no swap or another organisation's.
 */
export function checkSwapAnswer(
  swap: SwapState | null,
  answer: SwapAnswer,
  caller: SwapCaller,
  expiry: string | null,
): asserts swap is SwapState {
  if (!swap || swap.organisationId !== caller.organisationId) throw new NotFoundError('Shift swap');
  const allowed =
    answer === 'withdraw'
      ? caller.userId === swap.proposedBy
      : caller.userId === swap.with.userId ||
        (answer === 'accept' && caller.manages(swap.shift.teamId) && caller.manages(swap.with.teamId));
  if (!allowed) throw new ForbiddenError(`You may not ${answer} this swap.`);
  if (swap.status !== 'proposed') throw new ConflictError(`This swap is already ${swap.status}.`);
  if (expiry) throw new ConflictError(`This swap has expired: ${expiry}`);
}

const ANSWERED = { decline: 'rotas.ShiftSwapDeclined', withdraw: 'rotas.ShiftSwapWithdrawn' } as const;

/** Decline or withdraw: checkSwapAnswer, then the one event. */
export function decideSwapAnswer(
  swap: SwapState | null,
  answer: 'decline' | 'withdraw',
  caller: SwapCaller,
  expiry: string | null,
): ShiftSwapEvent[] {
  checkSwapAnswer(swap, answer, caller, expiry);
  return [{ type: ANSWERED[answer], data: { id: swap.id, organisationId: swap.organisationId, by: caller.userId } }];
}

import { Injectable } from '@nestjs/common';
import { AsReactor, causedJob, type CausedJob, defineReactor, type StoredEvent } from '#app/event-store';
import type { ShiftSwapEvent } from '../rotas.events.js';

export const SWAP_MAIL = 'rotas-swap-mail';

/** The job: the swap, what happened to it, and the transaction of the accept (its hand-overs carry the calendar sequences). */
export interface SwapMailJobData {
  readonly swapId: number;
  readonly organisationId: number;
  readonly kind: 'proposed' | 'accepted';
  readonly transactionId: string;
}
export type SwapMailJob = CausedJob<SwapMailJobData>;

type Mailed = Extract<ShiftSwapEvent, { type: 'rotas.ShiftSwapProposed' | 'rotas.ShiftSwapAccepted' }>;

const job = (kind: SwapMailJobData['kind']) => (event: StoredEvent<Mailed['type'], Mailed['data']>) =>
  causedJob(`swap-${kind}`, event, {
    swapId: event.data.id,
    organisationId: event.data.organisationId,
    kind,
    transactionId: event.transactionId,
  } satisfies SwapMailJobData);

/** A proposal and an accept become e-mail jobs (docs/rota-domain.md#swaps); a decline or withdrawal tells no one. */
@AsReactor()
@Injectable()
export class SwapMailReactor extends defineReactor<Mailed>({
  name: 'rotas.swap-mail',
  queue: SWAP_MAIL,
  on: {
    'rotas.ShiftSwapProposed': job('proposed'),
    'rotas.ShiftSwapAccepted': job('accepted'),
  },
}) {}

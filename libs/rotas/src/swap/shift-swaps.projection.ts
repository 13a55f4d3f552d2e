import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';
import type { DirectoryEvent } from '#app/identity';
import type { ShiftSwapEvent, SwapSideData } from '../rotas.events.js';

const TABLE = 'rota_shift_swaps';

const sideColumns = (prefix: 'shift' | 'with', s: SwapSideData) => ({
  [`${prefix}_id`]: s.shiftId,
  [`${prefix}_rota_id`]: s.rotaId,
  [`${prefix}_team_id`]: s.teamId,
  [`${prefix}_user_id`]: s.userId,
  [`${prefix}_starts_at`]: s.start,
  [`${prefix}_ends_at`]: s.end,
});

type Held = Extract<DirectoryEvent, { type: 'identity.UserHeld' | 'identity.UserAnonymised' }>;

/**
 * Swaps as the swap routes read them (docs/rota-domain.md#swaps). A volunteer put on hold (or
 * anonymised) expires their proposed swaps here, as the log orders it: a swap write reads the row
 * locked (swap-facts.ts), so it sees the expiry or the expiry waits for it and finds it answered.
 */
@AsProjection()
@Injectable()
export class ShiftSwapsProjection extends defineProjection<ShiftSwapEvent | Held>({
  name: 'rotas.shift-swaps',
  version: 1,
  tables: [TABLE],
  on: {
    'rotas.ShiftSwapProposed': ({ data: d, recordedAt: at }) => [
      op.upsert(TABLE, ['id'], {
        id: d.id,
        organisation_id: d.organisationId,
        status: 'proposed',
        ...sideColumns('shift', d.shift),
        ...sideColumns('with', d.with),
        proposed_by: d.proposedBy,
        created_at: at,
        decided_at: null,
      }),
    ],
    'rotas.ShiftSwapAccepted': ({ data: d, recordedAt: at }) => [
      op.update(TABLE, { id: d.id, status: 'proposed' }, { status: 'accepted', decided_at: at }),
    ],
    'rotas.ShiftSwapDeclined': ({ data: d, recordedAt: at }) => [
      op.update(TABLE, { id: d.id, status: 'proposed' }, { status: 'declined', decided_at: at }),
    ],
    'rotas.ShiftSwapWithdrawn': ({ data: d, recordedAt: at }) => [
      op.update(TABLE, { id: d.id, status: 'proposed' }, { status: 'withdrawn', decided_at: at }),
    ],
    'identity.UserHeld': ({ data: d, recordedAt: at }) => expireFor(d.userId, at),
    'identity.UserAnonymised': ({ data: d, recordedAt: at }) => expireFor(d.userId, at),
  },
}) {}

const expireFor = (userId: number, at: Date) =>
  (['shift_user_id', 'with_user_id'] as const).map((column) =>
    op.update(TABLE, { [column]: userId, status: 'proposed' }, { status: 'expired', decided_at: at }),
  );

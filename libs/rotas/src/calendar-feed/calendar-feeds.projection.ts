import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';
import type { UserAnonymisedEvent } from '#app/identity';
import type { CalendarFeedEvent } from '../rotas.events.js';

/**
 * The live feeds (`rota_calendar_feeds`), one row per user with a live token, found by its hash
 * (unique index): a rotation overwrites the row, so the old token finds nothing; a revocation
 * deletes it.
 */
@AsProjection()
@Injectable()
export class CalendarFeedsProjection extends defineProjection<CalendarFeedEvent | UserAnonymisedEvent>({
  name: 'rotas.calendar-feeds',
  version: 1,
  tables: ['rota_calendar_feeds'],
  on: {
    'rotas.CalendarFeedIssued': ({ data: d, recordedAt: at }) => [
      op.upsert('rota_calendar_feeds', ['user_id'], {
        user_id: d.userId,
        organisation_id: d.organisationId,
        token_hash: d.tokenHash,
        issued_at: at,
      }),
    ],
    'rotas.CalendarFeedRevoked': ({ data: d }) => [op.delete('rota_calendar_feeds', { user_id: d.userId })],
    // docs/privacy.md#anonymising-a-user: their feed URL finds nothing (404).
    'identity.UserAnonymised': ({ data: d }) => [op.delete('rota_calendar_feeds', { user_id: d.userId })],
  },
}) {}

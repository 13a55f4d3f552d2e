import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';
import type { EndpointEvent } from '../webhooks.events.js';

/**
 * Endpoints as the API lists them, with their sealed secrets for the sender (opened only to sign).
 * A deleted endpoint's row goes; its deliveries are dropped by the delete command.
 */
@AsProjection()
@Injectable()
export class EndpointsProjection extends defineProjection<EndpointEvent>({
  name: 'webhooks.endpoints',
  version: 1,
  tables: ['webhook_endpoints'],
  on: {
    'webhooks.EndpointCreated': ({ data: d, recordedAt: at }) => [
      op.upsert('webhook_endpoints', ['id'], {
        id: d.id,
        organisation_id: d.organisationId,
        url: d.url,
        events: d.events,
        description: d.description,
        enabled: d.enabled,
        secret: d.sealedSecret,
        previous_secret: null,
        previous_until: null,
        created_at: at,
        updated_at: at,
      }),
    ],
    'webhooks.EndpointChanged': ({ data: d, recordedAt: at }) => [
      op.update(
        'webhook_endpoints',
        { id: d.id },
        {
          ...(d.changes.url !== undefined && { url: d.changes.url }),
          ...(d.changes.events !== undefined && { events: d.changes.events }),
          ...(d.changes.description !== undefined && { description: d.changes.description }),
          ...(d.changes.enabled !== undefined && { enabled: d.changes.enabled }),
          updated_at: at,
        },
      ),
    ],
    // A rotation is not a change of the record the API shows (its updated_at stays).
    'webhooks.EndpointSecretRotated': ({ data: d }) => [
      op.update(
        'webhook_endpoints',
        { id: d.id },
        { secret: d.sealedSecret, previous_secret: d.previousSealedSecret, previous_until: d.previousUntil },
      ),
    ],
    'webhooks.EndpointDeleted': ({ data: d }) => [op.delete('webhook_endpoints', { id: d.id })],
  },
}) {}

import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';

/** identity.UserAnonymised, declared here by its type (the privacy contract's shape; no personal data). */
type UserAnonymised = {
  type: 'identity.UserAnonymised';
  data: { userId: number; organisationId: number; requestedBy: string; anonymisedAt: string };
};

/**
 * An anonymised user's personal data leaves the webhook delivery records in the anonymising
 * transaction (docs/privacy.md#what-is-purged-and-file-deletion): every delivery whose body names
 * them (user_ids, filled from the body when it was built) is purged, sent or still owed; one still
 * owed is then not sent. It owns no table (webhook_deliveries is the worker's record of owed
 * deliveries, not a read table): a replay rebuilds nothing and purges the same deliveries again,
 * which is nothing.
 */
@AsProjection()
@Injectable()
export class WebhookPersonalDataProjection extends defineProjection<UserAnonymised>({
  name: 'webhooks.personal-data',
  version: 1,
  tables: [],
  on: {
    'identity.UserAnonymised': ({ data: d }) => [
      op.delete('webhook_deliveries', { organisation_id: d.organisationId, user_ids: op.has(d.userId) }),
    ],
  },
}) {}

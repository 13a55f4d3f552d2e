import type { Permission } from '#app/identity';

/** docs/webhooks.md#endpoints: every webhook route needs manage-integrations; another organisation's endpoint is a 404. */
export const WEBHOOKS_PERMISSION: Permission = 'manage-integrations';

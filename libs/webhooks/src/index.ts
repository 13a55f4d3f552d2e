export { WebhooksModule } from './webhooks.module.js';
export { WebhooksHttpModule } from './webhooks-http.module.js';
export { WEBHOOKS_QUEUES, WebhooksWorkerModule } from './webhooks-worker.module.js';
export type { EndpointEvent } from './webhooks.events.js';
export { EVENT_SOURCES, PUBLIC_EVENT_TYPES } from './event-types.js';

import { personalData } from '#app/event-store';

/** An endpoint is the organisation's: its description, address and secrets are not a user's. */
personalData.organisation('webhooks.EndpointCreated', ['description', 'url', 'sealedSecret']);
personalData.organisation('webhooks.EndpointChanged', ['changes.description', 'changes.url']);
personalData.organisation('webhooks.EndpointSecretRotated', ['sealedSecret', 'previousSealedSecret']);

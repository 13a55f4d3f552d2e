/**
 * Stream `webhooks.Endpoint-<id>`: one webhook endpoint (docs/webhooks.md#endpoints). Secrets are
 * sealed (platform's SecretBox): the log never holds them in clear.
 */
export interface EndpointSettings {
  url: string;
  /** Public event type names, or `['*']`. */
  events: string[];
  description: string;
  enabled: boolean;
}

export type EndpointEvent =
  | {
      type: 'webhooks.EndpointCreated';
      data: EndpointSettings & { id: number; organisationId: number; sealedSecret: string };
    }
  /** Only the settings that changed are present. */
  | {
      type: 'webhooks.EndpointChanged';
      data: { id: number; organisationId: number; changes: Partial<EndpointSettings> };
    }
  /** The old secret keeps signing beside the new one until `previousUntil` (docs/webhooks.md#rotation). */
  | {
      type: 'webhooks.EndpointSecretRotated';
      data: {
        id: number;
        organisationId: number;
        sealedSecret: string;
        previousSealedSecret: string;
        previousUntil: string;
      };
    }
  | { type: 'webhooks.EndpointDeleted'; data: { id: number; organisationId: number } };

export const endpointStream = (id: number) => `webhooks.Endpoint-${id}`;

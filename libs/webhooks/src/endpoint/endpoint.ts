import { type FieldErrors, NotFoundError, ValidationError } from '#app/platform';
import { ALL_EVENTS, PUBLIC_EVENT_TYPES } from '../event-types.js';
import type { EndpointEvent, EndpointSettings } from '../webhooks.events.js';

/** docs/webhooks.md#rotation: how long the old secret keeps signing after a rotation. */
export const PREVIOUS_SECRET_MS = 24 * 3600 * 1000;
export const MAX_URL_LENGTH = 2048;

export interface EndpointState extends EndpointSettings {
  id: number;
  organisationId: number;
  deleted: boolean;
}

export function evolve(state: EndpointState | null, event: EndpointEvent): EndpointState | null {
  switch (event.type) {
    case 'webhooks.EndpointCreated': {
      const { id, organisationId, url, events, description, enabled } = event.data;
      return { id, organisationId, url, events, description, enabled, deleted: false };
    }
    case 'webhooks.EndpointChanged':
      return state && { ...state, ...event.data.changes };
    case 'webhooks.EndpointSecretRotated':
      return state;
    case 'webhooks.EndpointDeleted':
      return state && { ...state, deleted: true };
  }
}

/**
 * The rules of docs/webhooks.md#endpoints that need no I/O: `url` http or https, at most 2,048
 * characters, with a host; `events` a non-empty list of known names, or `["*"]`. Whether the host
 * may be called is asked of DNS by the handler (url-check.ts).
 */
export function settingsErrors(settings: Partial<EndpointSettings>): FieldErrors {
  const errors: FieldErrors = {};
  if (settings.url !== undefined) {
    const problem = urlProblem(settings.url);
    if (problem) errors.url = [problem];
  }
  if (settings.events !== undefined) {
    const unknown = settings.events.filter((e) => e !== ALL_EVENTS && !PUBLIC_EVENT_TYPES.includes(e));
    if (settings.events.length === 0) errors.events = ['The events field must name at least one event type, or "*".'];
    else if (unknown.length > 0)
      errors.events = [`Unknown event type${unknown.length > 1 ? 's' : ''}: ${unknown.slice(0, 10).join(', ')}.`];
    else if (settings.events.includes(ALL_EVENTS) && settings.events.length > 1)
      errors.events = ['"*" stands for every event type and comes alone.'];
    else if (new Set(settings.events).size !== settings.events.length)
      errors.events = ['The events field names a type twice.'];
  }
  return errors;
}

function urlProblem(raw: string): string | null {
  if (raw.length > MAX_URL_LENGTH) return `The url may not be greater than ${MAX_URL_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'The url must be an absolute http or https URL.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'The url must be an absolute http or https URL.';
  if (!url.hostname) return 'The url must name a host.';
  if (url.username || url.password) return 'The url may not carry a user name or password.';
  return null;
}

export interface CreateEndpoint {
  id: number;
  organisationId: number;
  settings: EndpointSettings;
  sealedSecret: string;
}

export function decideCreate(state: EndpointState | null, cmd: CreateEndpoint): EndpointEvent[] {
  if (state) throw new Error(`endpoint ${cmd.id} exists`);
  const errors = settingsErrors(cmd.settings);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return [
    {
      type: 'webhooks.EndpointCreated',
      data: { id: cmd.id, organisationId: cmd.organisationId, ...cmd.settings, sealedSecret: cmd.sealedSecret },
    },
  ];
}

/** Another organisation's endpoint, or a deleted one, is unknown (docs/http-conventions.md#tenancy). */
function existing(state: EndpointState | null, organisationId: number): EndpointState {
  if (!state || state.deleted || state.organisationId !== organisationId) throw new NotFoundError('Webhook endpoint');
  return state;
}

export function decideUpdate(
  state: EndpointState | null,
  cmd: { organisationId: number; changes: Partial<EndpointSettings> },
): EndpointEvent[] {
  const endpoint = existing(state, cmd.organisationId);
  const errors = settingsErrors(cmd.changes);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const changes: Partial<EndpointSettings> = {};
  for (const key of ['url', 'events', 'description', 'enabled'] as const) {
    const value = cmd.changes[key];
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(endpoint[key]))
      Object.assign(changes, { [key]: value });
  }
  if (Object.keys(changes).length === 0) return [];
  return [
    { type: 'webhooks.EndpointChanged', data: { id: endpoint.id, organisationId: endpoint.organisationId, changes } },
  ];
}

export function decideRotate(
  state: EndpointState | null,
  cmd: { organisationId: number; sealedSecret: string; previousSealedSecret: string },
  context: { now: string },
): EndpointEvent[] {
  const endpoint = existing(state, cmd.organisationId);
  const previousUntil = new Date(Date.parse(context.now) + PREVIOUS_SECRET_MS).toISOString();
  return [
    {
      type: 'webhooks.EndpointSecretRotated',
      data: {
        id: endpoint.id,
        organisationId: endpoint.organisationId,
        sealedSecret: cmd.sealedSecret,
        previousSealedSecret: cmd.previousSealedSecret,
        previousUntil,
      },
    },
  ];
}

export function decideDelete(state: EndpointState | null, cmd: { organisationId: number }): EndpointEvent[] {
  const endpoint = existing(state, cmd.organisationId);
  return [{ type: 'webhooks.EndpointDeleted', data: { id: endpoint.id, organisationId: endpoint.organisationId } }];
}

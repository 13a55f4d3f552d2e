import { Injectable } from '@nestjs/common';
import { AsProjection, op, type Projection, type ProjectionOp, type StoredEvent } from '#app/event-store';
import type { DirectoryEvent } from '#app/identity';
import { SECRETS } from './fields.js';
import type { SettingsEvent } from './settings.events.js';

type Provisioned = Extract<DirectoryEvent, { type: 'identity.OrganisationProvisioned' }>;

/**
 * The settings as rows, from provisioning (identity's event: name, slug, time zone and the file's
 * settings) and from every change; plus the change history, with secrets shown only as changed.
 */
@AsProjection()
@Injectable()
export class SettingsProjection implements Projection {
  readonly name = 'organisation.settings';
  readonly version = 1;
  readonly tables = ['organisation_settings', 'organisation_settings_history'];
  readonly handles = ['identity.OrganisationProvisioned', 'organisation.SettingsChanged'];

  project(stored: StoredEvent): ProjectionOp[] {
    const e = stored as unknown as Provisioned | SettingsEvent;
    if (e.type === 'identity.OrganisationProvisioned') {
      const { id, name, slug, timezone, settings } = e.data;
      return rows(id, { ...settings, name, slug, timezone });
    }
    const { organisationId, changes } = e.data;
    const shown = Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, k in SECRETS ? (v === null ? '(cleared)' : '(changed)') : v]));
    return [
      ...rows(organisationId, changes),
      op.upsert('organisation_settings_history', ['position'], {
        position: stored.position, organisation_id: organisationId, actor_id: stored.metadata.actorId ?? null, changed_at: stored.recordedAt, fields: shown,
      }),
    ];
  }
}

function rows(organisationId: number, values: Record<string, unknown>): ProjectionOp[] {
  return Object.entries(values).map(([name, value]) => op.upsert('organisation_settings', ['organisation_id', 'name'], { organisation_id: organisationId, name, value: value ?? null }));
}

import { Injectable } from '@nestjs/common';
import { actorUserId, AsProjection, defineProjection, op, type ProjectionOp } from '#app/event-store';
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
export class SettingsProjection extends defineProjection<Provisioned | SettingsEvent>({
  name: 'organisation.settings',
  version: 1,
  tables: ['organisation_settings', 'organisation_settings_history'],
  on: {
    'identity.OrganisationProvisioned': ({ data: { id, name, slug, timezone, settings } }) => rows(id, { ...settings, name, slug, timezone }),
    'organisation.SettingsChanged': ({ data: { organisationId, changes }, position, metadata, recordedAt }) => {
      const shown = Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, k in SECRETS ? (v === null ? '(cleared)' : '(changed)') : v]));
      return [
        ...rows(organisationId, changes),
        op.upsert('organisation_settings_history', ['position'], {
          position, organisation_id: organisationId, actor_id: actorUserId(metadata), changed_at: recordedAt, fields: shown,
        }),
      ];
    },
  },
}) {}

function rows(organisationId: number, values: Record<string, unknown>): ProjectionOp[] {
  return Object.entries(values).map(([name, value]) => op.upsert('organisation_settings', ['organisation_id', 'name'], { organisation_id: organisationId, name, value: value ?? null }));
}

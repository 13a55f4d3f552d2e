import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op, type ProjectionOp } from '#app/event-store';
import type { DirectoryEvent } from '#app/identity';
import type { SettingsEvent } from './settings.events.js';

type Provisioned = Extract<DirectoryEvent, { type: 'identity.OrganisationProvisioned' }>;

/**
 * The settings as rows, from provisioning (identity's event: name, slug, time zone and the file's
 * settings) and from every change. The change history is read from the settings stream itself
 * (settings-history.ts, the record-history reader): version 1 also kept it in a table.
 */
@AsProjection()
@Injectable()
export class SettingsProjection extends defineProjection<Provisioned | SettingsEvent>({
  name: 'organisation.settings',
  version: 2,
  tables: ['organisation_settings'],
  on: {
    'identity.OrganisationProvisioned': ({ data: { id, name, slug, timezone, settings } }) =>
      rows(id, { ...settings, name, slug, timezone }),
    'organisation.SettingsChanged': ({ data: { organisationId, changes } }) => rows(organisationId, changes),
  },
}) {}

function rows(organisationId: number, values: Record<string, unknown>): ProjectionOp[] {
  return Object.entries(values).map(([name, value]) =>
    op.upsert('organisation_settings', ['organisation_id', 'name'], {
      organisation_id: organisationId,
      name,
      value: value ?? null,
    }),
  );
}

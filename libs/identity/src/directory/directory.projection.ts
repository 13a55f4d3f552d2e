import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';
import type { DirectoryEvent } from './directory.events.js';

/** How an anonymised user is named wherever a record shows them (docs/privacy.md#anonymising-a-user). */
export const ANONYMISED_NAME = 'Anonymised user';

/** Organisations, teams, role profiles, categories, users and roles as the API reads them. */
@AsProjection()
@Injectable()
export class DirectoryProjection extends defineProjection<DirectoryEvent>({
  name: 'identity.directory',
  version: 3,
  tables: ['organisations', 'teams', 'role_profiles', 'activity_categories', 'users', 'roles'],
  on: {
    'identity.OrganisationProvisioned': ({ data: d, recordedAt: at }) => [
      op.upsert('organisations', ['id'], {
        id: d.id,
        slug: d.slug,
        name: d.name,
        timezone: d.timezone,
        features: d.features,
        created_at: at,
      }),
    ],
    'identity.TeamCreated': ({ data: d, recordedAt: at }) => [
      op.upsert('teams', ['id'], {
        id: d.id,
        organisation_id: d.organisationId,
        parent_id: d.parentId,
        name: d.name,
        description: d.description ?? null,
        icon: d.icon ?? '',
        hidden: d.hidden ?? false,
        disabled: d.disabled ?? false,
        created_at: at,
      }),
    ],
    'identity.RoleProfileCreated': ({ data: d }) => [
      op.upsert('role_profiles', ['id'], { id: d.id, organisation_id: d.organisationId, name: d.name }),
    ],
    'identity.ActivityCategoryCreated': ({ data: d }) => [
      op.upsert('activity_categories', ['id'], { id: d.id, organisation_id: d.organisationId, name: d.name }),
    ],
    'identity.UserRegistered': ({ data: d, recordedAt: at }) => [
      op.upsert('users', ['id'], {
        id: d.id,
        organisation_id: d.organisationId,
        email: d.email,
        password_hash: d.passwordHash,
        display_name: d.displayName,
        title: d.title,
        phone: d.phone,
        status: d.status,
        two_factor: d.twoFactor,
        totp_secret: d.totpSecret,
        permissions: d.permissions,
        created_at: at,
      }),
    ],
    // Read from the user's stream when a code is checked; no table holds it.
    'identity.TotpStepUsed': null,
    'identity.PermissionsGranted': ({ data: d }) => [
      op.update('users', { id: d.userId }, { permissions: d.permissions }),
    ],
    'identity.PermissionsRevoked': ({ data: d }) => [
      op.update('users', { id: d.userId }, { permissions: d.permissions }),
    ],
    // docs/http-conventions.md#user-summary: an on-hold user still logs in; bookings of them need ignore_on_hold.
    'identity.UserHeld': ({ data: d }) => [op.update('users', { id: d.userId }, { status: 'on_hold' })],
    'identity.UserReleased': ({ data: d }) => [op.update('users', { id: d.userId }, { status: 'active' })],
    // docs/privacy.md#anonymising-a-user: nothing personal stays; id, organisation, roles and dates do.
    'identity.UserAnonymised': ({ data: d }) => [
      op.update(
        'users',
        { id: d.userId },
        {
          email: null,
          password_hash: null,
          display_name: ANONYMISED_NAME,
          title: '',
          phone: null,
          status: 'anonymised',
          two_factor: null,
          totp_secret: null,
          anonymised_at: d.anonymisedAt,
        },
      ),
    ],
    'identity.RoleAssigned': ({ data: d }) => [
      op.upsert('roles', ['id'], {
        id: d.id,
        organisation_id: d.organisationId,
        user_id: d.userId,
        team_id: d.teamId,
        role_profile_id: d.roleProfileId,
        position: d.position,
      }),
    ],
  },
}) {}

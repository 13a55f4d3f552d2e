import { Injectable } from '@nestjs/common';
import { AsProjection, op, type Projection, type ProjectionOp, type StoredEvent } from '#app/event-store';
import type { DirectoryEvent } from './directory.events.js';

/** Organisations, teams, role profiles, categories, users and roles as the API reads them. */
@AsProjection()
@Injectable()
export class DirectoryProjection implements Projection {
  readonly name = 'identity.directory';
  readonly version = 1;
  readonly tables = ['organisations', 'teams', 'role_profiles', 'activity_categories', 'users', 'roles'];
  readonly handles = [
    'identity.OrganisationProvisioned',
    'identity.TeamCreated',
    'identity.RoleProfileCreated',
    'identity.ActivityCategoryCreated',
    'identity.UserRegistered',
    'identity.RoleAssigned',
  ];

  project(stored: StoredEvent): ProjectionOp[] {
    const e = stored as unknown as DirectoryEvent;
    const at = stored.recordedAt;
    switch (e.type) {
      case 'identity.OrganisationProvisioned':
        return [op.upsert('organisations', ['id'], { id: e.data.id, slug: e.data.slug, name: e.data.name, timezone: e.data.timezone, features: e.data.features, created_at: at })];
      case 'identity.TeamCreated':
        return [op.upsert('teams', ['id'], { id: e.data.id, organisation_id: e.data.organisationId, parent_id: e.data.parentId, name: e.data.name, created_at: at })];
      case 'identity.RoleProfileCreated':
        return [op.upsert('role_profiles', ['id'], { id: e.data.id, organisation_id: e.data.organisationId, name: e.data.name })];
      case 'identity.ActivityCategoryCreated':
        return [op.upsert('activity_categories', ['id'], { id: e.data.id, organisation_id: e.data.organisationId, name: e.data.name })];
      case 'identity.UserRegistered': {
        const d = e.data;
        return [
          op.upsert('users', ['id'], {
            id: d.id, organisation_id: d.organisationId, email: d.email, password_hash: d.passwordHash, display_name: d.displayName, title: d.title,
            phone: d.phone, status: d.status, two_factor: d.twoFactor, totp_secret: d.totpSecret, permissions: d.permissions, created_at: at,
          }),
        ];
      }
      case 'identity.RoleAssigned': {
        const d = e.data;
        return [op.upsert('roles', ['id'], { id: d.id, organisation_id: d.organisationId, user_id: d.userId, team_id: d.teamId, role_profile_id: d.roleProfileId, position: d.position })];
      }
      default:
        return [];
    }
  }
}

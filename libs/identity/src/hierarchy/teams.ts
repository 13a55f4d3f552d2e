import { Injectable } from '@nestjs/common';
import { sql, tenantScope, tenantSql, PreparedStatements } from '#app/platform';
import type { Caller } from '../auth/caller.js';
import type { Queries } from './organisation-facts.js';

type Tenant = Pick<Caller, 'organisationId'>;

/**
 * The Team object, as rota and shift records embed it (docs/http-conventions.md#team-object). `id`
 * is a string, as the interface declares; fields the organisation never set are empty strings or false.
 */
export interface TeamObject {
  id: string;
  parent_id: number | null;
  name: string;
  description: string;
  geo_location: string;
  catchment_area_id: string;
  icon: string;
  show_on_public_site: boolean;
  ceiling_enabled: boolean;
  hidden: boolean;
  disabled: boolean;
}

/**
 * Teams for other contexts (rotas), which may not read identity's tables. "Sees" is as in
 * docs/http-conventions.md#hierarchy: a user sees a team when they hold a role in it or in a team above it,
 * whatever their permissions; a permission reaches the same teams (Hierarchy.teams).
 */
@Injectable()
export class Teams {
  constructor(private readonly prepared: PreparedStatements) {}

  /** Team objects of `ids` in the tenant's organisation (others are simply absent), keyed by id. */
  async objects(tenant: Tenant, ids: readonly number[]): Promise<Map<number, TeamObject>> {
    if (ids.length === 0) return new Map();
    const q = tenantSql(tenant)`SELECT id, parent_id, name, description, icon, hidden, disabled FROM teams
        WHERE ${tenantScope()} AND id = ANY(${ids}::bigint[])`;
    const rows: {
      id: string;
      parent_id: string | null;
      name: string;
      description: string | null;
      icon: string;
      hidden: boolean;
      disabled: boolean;
    }[] = await this.prepared.query(q.text, q.values);
    return new Map(
      rows.map((r) => [
        Number(r.id),
        {
          id: String(r.id),
          parent_id: r.parent_id === null ? null : Number(r.parent_id),
          name: r.name,
          description: r.description ?? '',
          geo_location: '',
          catchment_area_id: '',
          icon: r.icon,
          show_on_public_site: false,
          ceiling_enabled: false,
          hidden: r.hidden,
          disabled: r.disabled,
        },
      ]),
    );
  }

  /** Which of `ids` are teams of the tenant's organisation. */
  async existing(tenant: Tenant, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const q = tenantSql(tenant)`SELECT id FROM teams WHERE ${tenantScope()} AND id = ANY(${ids}::bigint[])`;
    const rows: { id: string }[] = await this.prepared.query(q.text, q.values);
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** The teams `userId` sees: those they hold a role in, and every team below them. */
  async seenBy(tenant: Tenant, userId: number): Promise<Set<number>> {
    return (await this.seenByEach(tenant, [userId])).get(userId) ?? new Set();
  }

  /** The teams each of `userIds` sees, in one query (users of other organisations see nothing). */
  async seenByEach(
    tenant: Tenant,
    userIds: readonly number[],
    db: Queries = this.prepared,
  ): Promise<Map<number, Set<number>>> {
    const seen = new Map<number, Set<number>>(userIds.map((id) => [id, new Set<number>()]));
    if (userIds.length === 0) return seen;
    const q = tenantSql(tenant)`WITH RECURSIVE reach AS (
         SELECT r.user_id, t.id FROM teams t JOIN roles r ON r.team_id = t.id
          WHERE ${tenantScope('t')} AND r.user_id = ANY(${userIds}::bigint[])
         UNION
         SELECT reach.user_id, c.id FROM teams c JOIN reach ON c.parent_id = reach.id
       ) SELECT user_id, id FROM reach`;
    const rows: { user_id: string; id: string }[] = await db.query(q.text, q.values);
    for (const r of rows) seen.get(Number(r.user_id))?.add(Number(r.id));
    return seen;
  }

  /** Which of `ids` are role profiles of the tenant's organisation. */
  async roleProfiles(tenant: Tenant, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const q = tenantSql(tenant)`SELECT id FROM role_profiles WHERE ${tenantScope()} AND id = ANY(${ids}::bigint[])`;
    const rows: { id: string }[] = await this.prepared.query(q.text, q.values);
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** Activity categories of `ids` in the tenant's organisation, keyed by id (a shift pattern's `category`). */
  async activityCategories(tenant: Tenant, ids: readonly number[]): Promise<Map<number, { id: number; name: string }>> {
    if (ids.length === 0) return new Map();
    const q = tenantSql(
      tenant,
    )`SELECT id, name FROM activity_categories WHERE ${tenantScope()} AND id = ANY(${ids}::bigint[])`;
    const rows: { id: string; name: string }[] = await this.prepared.query(q.text, q.values);
    return new Map(rows.map((r) => [Number(r.id), { id: Number(r.id), name: r.name }]));
  }

  /** The role profile ids of the roles `userId` holds (rotas' `restricted_by_role`). */
  async roleProfilesOf(tenant: Tenant, userId: number): Promise<Set<number>> {
    const q = tenantSql(
      tenant,
    )`SELECT DISTINCT role_profile_id FROM roles WHERE ${tenantScope()} AND user_id = ${userId}`;
    const rows: { role_profile_id: string }[] = await this.prepared.query(q.text, q.values);
    return new Set(rows.map((r) => Number(r.role_profile_id)));
  }

  /**
   * What the booking rules need of each user (docs/rota-domain.md#booking-rules, rules 3–5), in two queries:
   * whether they are on hold, the role profiles of the roles they hold, and the teams they see. Users of other
   * organisations (or unknown), and anonymised users, are absent.
   */
  async bookersOf(
    tenant: Tenant,
    userIds: readonly number[],
    db: Queries = this.prepared,
  ): Promise<Map<number, { onHold: boolean; roleProfileIds: Set<number>; seen: Set<number> }>> {
    if (userIds.length === 0) return new Map();
    // One statement: the users' standing and the teams each sees (seenByEach's reach), so a write
    // reading it inside its transaction pays one round trip.
    const q = tenantSql(tenant)`WITH RECURSIVE reach AS (
         SELECT r.user_id, t.id FROM teams t JOIN roles r ON r.team_id = t.id
          WHERE ${tenantScope('t')} AND r.user_id = ANY(${userIds}::bigint[])
         UNION
         SELECT reach.user_id, c.id FROM teams c JOIN reach ON c.parent_id = reach.id
       )
       SELECT u.id, u.status,
              coalesce(array_agg(DISTINCT r.role_profile_id) FILTER (WHERE r.role_profile_id IS NOT NULL), '{}') AS profiles,
              ARRAY(SELECT reach.id FROM reach WHERE reach.user_id = u.id) AS seen
         FROM users u LEFT JOIN roles r ON r.user_id = u.id
        WHERE ${tenantScope('u')} AND u.id = ANY(${userIds}::bigint[]) AND u.anonymised_at IS NULL
        GROUP BY u.id, u.status`;
    const rows: { id: string; status: string; profiles: string[]; seen: string[] }[] = await db.query(q.text, q.values);
    return new Map(
      rows.map((r) => [
        Number(r.id),
        {
          onHold: r.status === 'on_hold',
          roleProfileIds: new Set(r.profiles.map(Number)),
          seen: new Set(r.seen.map(Number)),
        },
      ]),
    );
  }

  /**
   * The active users (not on hold) holding a role in `teamId` itself (not only in a team above it),
   * and, when `profiles` is given, a role of one of those profiles (anywhere: the booking rules'
   * rule 5 reads all of a user's roles), leaving out `excluding`; in one statement, by id. Rotas'
   * cover alerts (docs/rota-domain.md#cover-alerts): who could book a timeslot themselves.
   */
  async activeMembers(
    tenant: Tenant,
    teamId: number,
    { profiles, excluding }: { profiles: readonly number[] | null; excluding: readonly number[] },
  ): Promise<{ id: number; email: string; displayName: string }[]> {
    const withProfile =
      profiles === null
        ? sql``
        : sql`AND EXISTS (SELECT 1 FROM roles p WHERE p.user_id = u.id AND p.role_profile_id = ANY(${profiles}::bigint[]))`;
    const q = tenantSql(tenant)`SELECT u.id, u.email, u.display_name FROM users u
        WHERE ${tenantScope('u')} AND u.status = 'active' AND u.email IS NOT NULL AND u.email <> ''
          AND EXISTS (SELECT 1 FROM roles r WHERE r.user_id = u.id AND r.team_id = ${teamId})
          ${withProfile} AND NOT (u.id = ANY(${excluding}::bigint[]))
        ORDER BY u.id`;
    const rows: { id: string; email: string; display_name: string }[] = await this.prepared.query(q.text, q.values);
    return rows.map((r) => ({ id: Number(r.id), email: r.email, displayName: r.display_name }));
  }

  /** The permissions each of `userIds` holds (users of other organisations are absent): rotas' contact validation. */
  async permissionsOf(tenant: Tenant, userIds: readonly number[]): Promise<Map<number, Set<string>>> {
    if (userIds.length === 0) return new Map();
    const q = tenantSql(
      tenant,
    )`SELECT id, permissions FROM users WHERE ${tenantScope()} AND id = ANY(${userIds}::bigint[])`;
    const rows: { id: string; permissions: string[] }[] = await this.prepared.query(q.text, q.values);
    return new Map(rows.map((r) => [Number(r.id), new Set(r.permissions)]));
  }
}

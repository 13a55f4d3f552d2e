import { Injectable } from '@nestjs/common';
import { sql, tenantScope, tenantSql, PreparedStatements } from '#app/platform';
import type { Caller } from '../auth/caller.js';
import type { Permission } from '../permissions.js';
import { Hierarchy } from './hierarchy.js';

/** The UserBase (docs/http-conventions.md#user-summary): how one user appears inside another record. */
export interface UserBase {
  id: number;
  display_name: string;
  title: string | null;
  /** No photos are stored yet; null rather than a made-up URL. */
  profile_photo_url: string | null;
  can_manage: boolean;
  role_name: string | null;
  team_name: string | null;
  status: { id: string; name: string; contactable: boolean };
}

const STATUS = {
  active: { id: 'active', name: 'Active', contactable: true },
  on_hold: { id: 'on_hold', name: 'On hold', contactable: false },
  anonymised: { id: 'anonymised', name: 'Anonymised', contactable: false },
} as const;

/** A user's `status` object as every record shows it, from the users table's status id. */
export function userStatusOf(id: string): UserBase['status'] {
  return STATUS[id as keyof typeof STATUS] ?? { id, name: id, contactable: false };
}

@Injectable()
export class UserBases {
  constructor(
    private readonly prepared: PreparedStatements,
    private readonly hierarchy: Hierarchy,
  ) {}

  /**
   * UserBases of `ids` in the caller's organisation (others are simply absent), keyed by id.
   * `can_manage` is judged through `permission`; role and team are the user's first role.
   */
  async of(caller: Caller, ids: readonly number[], permission: Permission | 'any'): Promise<Map<number, UserBase>> {
    if (ids.length === 0) return new Map();
    // The caller's reach came with the log-in check (Caller.standing): can_manage in the same statement.
    const holds = permission === 'any' ? caller.permissions.size > 0 : caller.permissions.has(permission);
    const seen = caller.standing && (holds ? caller.standing.seen : []);
    const managedColumn = seen
      ? sql`EXISTS (SELECT 1 FROM roles m WHERE ${tenantScope('m')} AND m.user_id = u.id AND m.team_id = ANY(${seen}::bigint[]))`
      : sql`false`;
    const q = tenantSql(
      caller,
    )`SELECT u.id, u.display_name, u.title, u.status, rp.name AS role_name, t.name AS team_name, ${managedColumn} AS managed
         FROM users u
         LEFT JOIN LATERAL (SELECT * FROM roles r WHERE r.user_id = u.id ORDER BY r.position LIMIT 1) r ON true
         LEFT JOIN role_profiles rp ON rp.id = r.role_profile_id
         LEFT JOIN teams t ON t.id = r.team_id
        WHERE ${tenantScope('u')} AND u.id = ANY(${ids}::bigint[])`;
    const rows: {
      id: string;
      display_name: string;
      title: string | null;
      status: keyof typeof STATUS;
      role_name: string | null;
      team_name: string | null;
      managed: boolean;
    }[] = await this.prepared.query(q.text, q.values);
    const managed = seen
      ? new Set(rows.filter((r) => r.managed).map((r) => Number(r.id)))
      : await this.hierarchy.managedAmong(caller, permission, ids);
    return new Map(
      rows.map((r) => {
        const id = Number(r.id);
        return [
          id,
          {
            id,
            display_name: r.display_name,
            title: r.title,
            profile_photo_url: null,
            can_manage: managed.has(id),
            role_name: r.role_name,
            team_name: r.team_name,
            status: STATUS[r.status],
          },
        ];
      }),
    );
  }
  /**
   * Display names of `ids` in the tenant's organisation (others are simply absent), keyed by id:
   * for other contexts that sort or export by name and may not read `users` themselves.
   */
  async displayNames(tenant: Pick<Caller, 'organisationId'>, ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const q = tenantSql(
      tenant,
    )`SELECT u.id, u.display_name FROM users u WHERE ${tenantScope('u')} AND u.id = ANY(${ids}::bigint[])`;
    const rows: { id: string; display_name: string }[] = await this.prepared.query(q.text, q.values);
    return new Map(rows.map((r) => [Number(r.id), r.display_name]));
  }

  /**
   * E-mail addresses of `ids` in the tenant's organisation (others are simply absent), keyed by id:
   * for other contexts' notifications, which may not read `users` themselves.
   */
  async emailsOf(tenant: Pick<Caller, 'organisationId'>, ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const q = tenantSql(
      tenant,
    )`SELECT u.id, u.email FROM users u WHERE ${tenantScope('u')} AND u.id = ANY(${ids}::bigint[])`;
    const rows: { id: string; email: string | null }[] = await this.prepared.query(q.text, q.values);
    // An anonymised user has no address (docs/privacy.md#anonymising-a-user): absent, as unknown ids are.
    return new Map(rows.filter((r) => r.email !== null).map((r) => [Number(r.id), r.email!]));
  }
}

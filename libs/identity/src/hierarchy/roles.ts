import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { tenantScope, tenantSql } from '#app/platform';
import type { Caller } from '../auth/caller.js';

/** A role as other records embed it: one user in one team with one role profile. */
export interface RoleView {
  id: number;
  user_id: number;
  team_id: number;
  team_name: string;
  role_profile_id: number;
}

export interface RoleProfileView {
  id: number;
  name: string;
}

/** Roles and role profiles, for other contexts, within the caller's organisation. */
@Injectable()
export class Roles {
  constructor(private readonly dataSource: DataSource) {}

  async of(caller: Caller, ids: readonly number[]): Promise<Map<number, RoleView & { roleProfile: RoleProfileView }>> {
    if (ids.length === 0) return new Map();
    const q = tenantSql(
      caller,
    )`SELECT r.id, r.user_id, r.team_id, t.name AS team_name, r.role_profile_id, rp.name AS profile_name
         FROM roles r JOIN teams t ON t.id = r.team_id JOIN role_profiles rp ON rp.id = r.role_profile_id
        WHERE ${tenantScope('r')} AND r.id = ANY(${ids}::bigint[])`;
    const rows: {
      id: string;
      user_id: string;
      team_id: string;
      team_name: string;
      role_profile_id: string;
      profile_name: string;
    }[] = await this.dataSource.query(q.text, q.values);
    return new Map(
      rows.map((r) => [
        Number(r.id),
        {
          id: Number(r.id),
          user_id: Number(r.user_id),
          team_id: Number(r.team_id),
          team_name: r.team_name,
          role_profile_id: Number(r.role_profile_id),
          roleProfile: { id: Number(r.role_profile_id), name: r.profile_name },
        },
      ]),
    );
  }

  /** Whether the role is one of `userId`'s own. */
  async belongsTo(caller: Caller, roleId: number, userId: number): Promise<boolean> {
    const q = tenantSql(caller)`SELECT 1 FROM roles WHERE ${tenantScope()} AND id = ${roleId} AND user_id = ${userId}`;
    const [row] = await this.dataSource.query(q.text, q.values);
    return !!row;
  }
}

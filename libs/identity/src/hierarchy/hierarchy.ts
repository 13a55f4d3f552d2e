import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Caller } from '../auth/caller.js';
import type { Permission } from '../permissions.js';

/**
 * api.md's hierarchy: a permission applies to the teams its holder has a role in and every team
 * below them; the users the holder manages are those with a role in such a team. Everything is
 * read within the caller's organisation.
 */
@Injectable()
export class Hierarchy {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Ids of the teams `permission` lets the caller act on (none without the permission). Every
   * permission reaches the same teams, so `any` asks for them on the strength of any permission.
   */
  async teams(caller: Caller, permission: Permission | 'any'): Promise<number[]> {
    if (permission === 'any' ? caller.permissions.size === 0 : !caller.permissions.has(permission)) return [];
    const rows: { id: string }[] = await this.dataSource.query(
      `WITH RECURSIVE reach AS (
         SELECT t.id FROM teams t JOIN roles r ON r.team_id = t.id
          WHERE r.user_id = $1 AND t.organisation_id = $2
         UNION
         SELECT c.id FROM teams c JOIN reach ON c.parent_id = reach.id
       ) SELECT id FROM reach ORDER BY id`,
      [caller.userId, caller.organisationId],
    );
    return rows.map((r) => Number(r.id));
  }

  /** Ids of the users the caller manages through `permission`. */
  async managedUsers(caller: Caller, permission: Permission | 'any'): Promise<number[]> {
    const teams = await this.teams(caller, permission);
    if (teams.length === 0) return [];
    const rows: { user_id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT user_id FROM roles WHERE organisation_id = $1 AND team_id = ANY($2::bigint[]) ORDER BY user_id`,
      [caller.organisationId, teams],
    );
    return rows.map((r) => Number(r.user_id));
  }

  /**
   * Users holding `permission` whose reach includes one of `userId`'s teams: those with a role in
   * one of its teams or any team above them. (Expense authorisers: approve-claims.)
   */
  async holdersOver(caller: Caller, userId: number, permission: Permission): Promise<number[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `WITH RECURSIVE above AS (
         SELECT t.id, t.parent_id FROM teams t JOIN roles r ON r.team_id = t.id
          WHERE r.user_id = $1 AND t.organisation_id = $2
         UNION
         SELECT p.id, p.parent_id FROM teams p JOIN above ON above.parent_id = p.id
       )
       SELECT DISTINCT u.id FROM users u JOIN roles r ON r.user_id = u.id
        WHERE u.organisation_id = $2 AND r.team_id IN (SELECT id FROM above) AND u.permissions ? $3
        ORDER BY u.id`,
      [userId, caller.organisationId, permission],
    );
    return rows.map((r) => Number(r.id));
  }

  async canManage(caller: Caller, userId: number, permission: Permission | 'any'): Promise<boolean> {
    return (await this.managedUsers(caller, permission)).includes(userId);
  }
}

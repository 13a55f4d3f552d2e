import { Injectable } from '@nestjs/common';
import { tenantScope, tenantSql, PreparedStatements } from '#app/platform';
import type { Caller } from '../auth/caller.js';
import type { Permission } from '../permissions.js';

/**
 * The hierarchy (docs/http-conventions.md#hierarchy): a permission applies to the teams its holder
 * has a role in and every team below them; the users the holder manages are those with a role in such a team.
 * Everything is read within the caller's organisation.
 */
@Injectable()
export class Hierarchy {
  constructor(private readonly prepared: PreparedStatements) {}

  /**
   * Ids of the teams `permission` lets the caller act on (none without the permission). Every
   * permission reaches the same teams, so `any` asks for them on the strength of any permission.
   */
  async teams(caller: Caller, permission: Permission | 'any'): Promise<number[]> {
    if (permission === 'any' ? caller.permissions.size === 0 : !caller.permissions.has(permission)) return [];
    const q = tenantSql(caller)`WITH RECURSIVE reach AS (
         SELECT t.id FROM teams t JOIN roles r ON r.team_id = t.id
          WHERE ${tenantScope('t')} AND r.user_id = ${caller.userId}
         UNION
         SELECT c.id FROM teams c JOIN reach ON c.parent_id = reach.id
       ) SELECT id FROM reach ORDER BY id`;
    const rows: { id: string }[] = await this.prepared.query(q.text, q.values);
    return rows.map((r) => Number(r.id));
  }

  /** Ids of the users the caller manages through `permission`. */
  async managedUsers(caller: Caller, permission: Permission | 'any'): Promise<number[]> {
    const teams = await this.teams(caller, permission);
    if (teams.length === 0) return [];
    const q = tenantSql(
      caller,
    )`SELECT DISTINCT user_id FROM roles WHERE ${tenantScope()} AND team_id = ANY(${teams}::bigint[]) ORDER BY user_id`;
    const rows: { user_id: string }[] = await this.prepared.query(q.text, q.values);
    return rows.map((r) => Number(r.user_id));
  }

  /**
   * Users holding `permission` whose reach includes one of `userId`'s teams: those with a role in
   * one of its teams or any team above them. (Expense authorisers: approve-claims.)
   */
  async holdersOver(caller: Caller, userId: number, permission: Permission): Promise<number[]> {
    const q = tenantSql(caller)`WITH RECURSIVE above AS (
         SELECT t.id, t.parent_id FROM teams t JOIN roles r ON r.team_id = t.id
          WHERE ${tenantScope('t')} AND r.user_id = ${userId}
         UNION
         SELECT p.id, p.parent_id FROM teams p JOIN above ON above.parent_id = p.id
       )
       SELECT DISTINCT u.id FROM users u JOIN roles r ON r.user_id = u.id
        WHERE ${tenantScope('u')} AND r.team_id IN (SELECT id FROM above) AND u.permissions ? ${permission}
        ORDER BY u.id`;
    const rows: { id: string }[] = await this.prepared.query(q.text, q.values);
    return rows.map((r) => Number(r.id));
  }

  /**
   * For each of `teamIds`, the users holding `permission` whose reach includes that team: those
   * with a role in it or in a team above it (rotas: the add-user-shifts managers of a rota's team).
   * Reads the tenant's organisation only.
   */
  async holdersOverTeams(
    tenant: Pick<Caller, 'organisationId'>,
    teamIds: readonly number[],
    permission: Permission,
  ): Promise<Map<number, number[]>> {
    if (teamIds.length === 0) return new Map();
    const q = tenantSql(tenant)`WITH RECURSIVE above AS (
         SELECT t.id AS team_id, t.id, t.parent_id FROM teams t WHERE ${tenantScope('t')} AND t.id = ANY(${teamIds}::bigint[])
         UNION
         SELECT above.team_id, p.id, p.parent_id FROM teams p JOIN above ON above.parent_id = p.id
       )
       SELECT above.team_id, array_agg(DISTINCT u.id ORDER BY u.id) AS users
         FROM above JOIN roles r ON r.team_id = above.id JOIN users u ON u.id = r.user_id
        WHERE ${tenantScope('u')} AND u.permissions ? ${permission}
        GROUP BY above.team_id`;
    const rows: { team_id: string; users: string[] }[] = await this.prepared.query(q.text, q.values);
    return new Map(rows.map((r) => [Number(r.team_id), r.users.map(Number)]));
  }

  /**
   * Which of `ids` the caller manages through `permission`: managedUsers asked of a few users, in
   * one statement bounded by them rather than by the size of the organisation.
   */
  async managedAmong(caller: Caller, permission: Permission | 'any', ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    if (permission === 'any' ? caller.permissions.size === 0 : !caller.permissions.has(permission)) return new Set();
    const q = tenantSql(caller)`WITH RECURSIVE reach AS (
         SELECT t.id FROM teams t JOIN roles r ON r.team_id = t.id
          WHERE ${tenantScope('t')} AND r.user_id = ${caller.userId}
         UNION
         SELECT c.id FROM teams c JOIN reach ON c.parent_id = reach.id
       ) SELECT DISTINCT r.user_id FROM roles r
          WHERE ${tenantScope('r')} AND r.user_id = ANY(${ids}::bigint[]) AND r.team_id IN (SELECT id FROM reach)`;
    const rows: { user_id: string }[] = await this.prepared.query(q.text, q.values);
    return new Set(rows.map((r) => Number(r.user_id)));
  }

  async canManage(caller: Caller, userId: number, permission: Permission | 'any'): Promise<boolean> {
    return (await this.managedAmong(caller, permission, [userId])).has(userId);
  }
}

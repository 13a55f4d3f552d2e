import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Caller, type TeamObject, Teams } from '#app/identity';
import { NotFoundError, type Sql, sql, type Tenant, tenantScope, tenantSql } from '#app/platform';
import { type ContactView, ContactQueries } from './contacts.queries.js';
import { type CallerReach, type RotaPermissions, rotaPermissions, RotasPolicy } from '../rotas.policy.js';
import { byText } from '../domain/by-text.js';

export const ROTA_INCLUDES = ['team', 'permissions', 'contacts'] as const;
export type RotaInclude = (typeof ROTA_INCLUDES)[number];
export const ROTA_SORTS = ['rota_title', 'start_date', 'end_date', 'team_name'] as const;
export type RotaSort = (typeof ROTA_SORTS)[number];

/**
 * A contact as the admin view embeds it (Rota contact, docs/rota-domain.md#record-shapes): the contacts
 * routes' record.
 */
export type RotaContactView = ContactView;

/**
 * The Rota (administration view) with our additions (docs/rota-domain.md#record-shapes); `team`,
 * `permissions`, `contacts` only when included.
 */
export interface RotaView {
  id: number;
  name: string;
  start: string;
  end: string | null;
  team_id: number;
  team_name: string;
  archived: boolean;
  colour: string;
  pattern_id: number;
  self_manage: boolean;
  allow_same_day_add: boolean;
  allow_same_day_cancel: boolean;
  allow_same_day_edit: boolean;
  restricted_by_role: boolean;
  role_profiles: number[];
  require_full_timeslot: boolean;
  team?: TeamObject | null;
  permissions?: RotaPermissions;
  contacts?: RotaContactView[];
}

/** The update answer and the rotas of a Rota team entry: the short rota (docs/rota-domain.md#record-shapes). */
export interface RotaSummaryView {
  id: number;
  name: string;
  start: string;
  end: string | null;
  colour: string;
  self_manage_allowed: boolean;
  allow_same_day_add: boolean;
  allow_same_day_cancel: boolean;
  allow_same_day_edit: boolean;
}

/** The Rota team entry (docs/rota-domain.md#rotas-by-team). */
export interface RotaTeamEntryView {
  id: number;
  name: string;
  icon: string;
  rotas: RotaSummaryView[];
}

export interface RotaListFilters {
  /** true: only archived rotas; false: only the others. */
  readonly archived: boolean;
  /** Only rotas of these teams (teams the caller does not see are simply left out). */
  readonly teams?: readonly number[];
}

export interface RotaListOrder {
  readonly sort: RotaSort;
  readonly direction: 'asc' | 'desc';
  readonly include: ReadonlySet<RotaInclude>;
}

/** A date range, both ends inclusive. */
export interface DateRange {
  readonly from: string;
  readonly to: string;
}

type Row = {
  id: string;
  team_id: string;
  pattern_id: string;
  name: string;
  colour: string;
  start_date: string;
  end_date: string | null;
  archived: boolean;
  self_manage: boolean;
  allow_same_day_add: boolean;
  allow_same_day_cancel: boolean;
  allow_same_day_edit: boolean;
  restricted_by_role: boolean;
  role_profile_ids: number[];
  require_full_timeslot: boolean;
};

const COLUMNS =
  sql.raw(`r.id, r.team_id, r.pattern_id, r.name, r.colour, r.start_date::text AS start_date, r.end_date::text AS end_date, r.archived,
  r.self_manage, r.allow_same_day_add, r.allow_same_day_cancel, r.allow_same_day_edit, r.restricted_by_role, r.role_profile_ids, r.require_full_timeslot`);

const summaryOf = (r: Row): RotaSummaryView => ({
  id: Number(r.id),
  name: r.name,
  start: r.start_date,
  end: r.end_date,
  colour: r.colour,
  self_manage_allowed: r.self_manage,
  allow_same_day_add: r.allow_same_day_add,
  allow_same_day_cancel: r.allow_same_day_cancel,
  allow_same_day_edit: r.allow_same_day_edit,
});

/** A null end date is an open-ended rota: it sorts after every date (names compare as byText, ties by id). */
const byEnd = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

/**
 * Reads of the `rotas` and `rota_contacts` tables for the administration routes and rotas by team
 * (tenant-scoped). A list reads its rotas in one query, then the teams (names, Team objects) in
 * one, the contacts in one and their users in one; it is not paged (`{ data }`, docs/http-conventions.md#envelopes),
 * so it sorts in memory, by team names identity serves.
 */
@Injectable()
export class RotaQueries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly teams: Teams,
    private readonly policy: RotasPolicy,
    private readonly contacts: ContactQueries,
  ) {}

  /** `GET /api/rotas`: the rotas the caller sees (a role in the rota's team or a team above it), for everyone. */
  async list(caller: Caller, filters: RotaListFilters, order: RotaListOrder): Promise<RotaView[]> {
    const reach = order.include.has('permissions') ? await this.policy.reach(caller) : null;
    const seen = reach?.seen ?? (await this.teams.seenBy(caller, caller.userId));
    const teams = [...seen].filter((t) => !filters.teams || filters.teams.includes(t));
    const rows = await this.rows(caller, sql`r.team_id = ANY(${teams}::bigint[]) AND r.archived = ${filters.archived}`);
    const views = await this.views(caller, rows, order.include, reach);
    return sortRotas(views, order.sort, order.direction);
  }

  /** Rotas by id, in the order given, without includes (the create answer). */
  async byIds(caller: Caller, ids: readonly number[]): Promise<RotaView[]> {
    const rows = await this.rows(caller, sql`r.id = ANY(${ids}::bigint[])`);
    const views = new Map((await this.views(caller, rows, new Set(), null)).map((v) => [v.id, v]));
    return ids.map((id) => views.get(id)!).filter(Boolean);
  }

  /** One rota as the update answers it. */
  async summary(tenant: Tenant, id: number): Promise<RotaSummaryView> {
    const [row] = await this.rows(tenant, sql`r.id = ${id}`);
    if (!row) throw new NotFoundError('Rota');
    return summaryOf(row);
  }

  /** Every rota of the teams, archived ones included (a create reads their streams). */
  async idsOfTeams(tenant: Tenant, teamIds: readonly number[]): Promise<number[]> {
    if (teamIds.length === 0) return [];
    const q = tenantSql(
      tenant,
    )`SELECT r.id FROM rotas r WHERE ${tenantScope('r')} AND r.team_id = ANY(${teamIds}::bigint[]) ORDER BY r.id`;
    const rows: { id: string }[] = await this.dataSource.query(q.text, q.values);
    return rows.map((r) => Number(r.id));
  }

  /**
   * For each of `rotaIds`, the earliest start of another non-archived rota of the same team that
   * starts after it (the one-rota-per-team rule bounds how late its end may be set).
   */
  async nextTeamStarts(
    tenant: Tenant,
    rotaIds: readonly number[],
  ): Promise<Map<number, { rotaId: number; startDate: string }>> {
    if (rotaIds.length === 0) return new Map();
    const q = tenantSql(
      tenant,
    )`SELECT DISTINCT ON (r.id) r.id, o.id AS other_id, to_char(o.start_date, 'YYYY-MM-DD') AS start_date
        FROM rotas r
        JOIN rotas o ON o.team_id = r.team_id AND o.organisation_id = r.organisation_id AND o.id <> r.id
                    AND NOT o.archived AND o.start_date > r.start_date
       WHERE ${tenantScope('r')} AND r.id = ANY(${rotaIds}::bigint[])
       ORDER BY r.id, o.start_date, o.id`;
    const rows: { id: string; other_id: string; start_date: string }[] = await this.dataSource.query(q.text, q.values);
    return new Map(rows.map((r) => [Number(r.id), { rotaId: Number(r.other_id), startDate: r.start_date }]));
  }

  /**
   * `GET /api/rota/teams`: the teams the caller sees with their non-archived rotas active on at
   * least one day of `range` (any such rota when null). Teams by name then id, each team's rotas
   * by name then id.
   */
  async byTeam(caller: Caller, range: DateRange | null): Promise<RotaTeamEntryView[]> {
    const seen = [...(await this.teams.seenBy(caller, caller.userId))];
    const active = range
      ? sql` AND r.start_date <= ${range.to}::date AND (r.end_date IS NULL OR r.end_date >= ${range.from}::date)`
      : sql``;
    const rows = await this.rows(caller, sql`r.team_id = ANY(${seen}::bigint[]) AND NOT r.archived${active}`);
    const objects = await this.teams.objects(caller, [...new Set(rows.map((r) => Number(r.team_id)))]);
    const entries = new Map<number, RotaTeamEntryView>();
    for (const row of [...rows].sort((a, b) => byText(a.name, b.name) || Number(a.id) - Number(b.id))) {
      const teamId = Number(row.team_id);
      const team = objects.get(teamId);
      if (!team) continue;
      const entry =
        entries.get(teamId) ??
        entries.set(teamId, { id: teamId, name: team.name, icon: team.icon, rotas: [] }).get(teamId)!;
      entry.rotas.push(summaryOf(row));
    }
    return [...entries.values()].sort((a, b) => byText(a.name, b.name) || a.id - b.id);
  }

  private async rows(tenant: Tenant, where: Sql): Promise<Row[]> {
    const q = tenantSql(tenant)`SELECT ${COLUMNS} FROM rotas r WHERE ${tenantScope('r')} AND ${where}`;
    return this.dataSource.query(q.text, q.values);
  }

  /** Rows as admin views, each include read once for all of them. */
  private async views(
    caller: Caller,
    rows: readonly Row[],
    include: ReadonlySet<RotaInclude>,
    reach: CallerReach | null,
  ): Promise<RotaView[]> {
    const teams = await this.teams.objects(caller, [...new Set(rows.map((r) => Number(r.team_id)))]);
    const contacts = include.has('contacts')
      ? await this.contacts.ofRotas(
          caller,
          rows.map((r) => Number(r.id)),
        )
      : null;
    return rows.map((r) => {
      const teamId = Number(r.team_id);
      const view: RotaView = {
        id: Number(r.id),
        name: r.name,
        start: r.start_date,
        end: r.end_date,
        team_id: teamId,
        team_name: teams.get(teamId)?.name ?? '',
        archived: r.archived,
        colour: r.colour,
        pattern_id: Number(r.pattern_id),
        self_manage: r.self_manage,
        allow_same_day_add: r.allow_same_day_add,
        allow_same_day_cancel: r.allow_same_day_cancel,
        allow_same_day_edit: r.allow_same_day_edit,
        restricted_by_role: r.restricted_by_role,
        role_profiles: r.role_profile_ids.map(Number),
        require_full_timeslot: r.require_full_timeslot,
      };
      if (include.has('team')) view.team = teams.get(teamId) ?? null;
      if (include.has('permissions') && reach) {
        view.permissions = rotaPermissions(reach, {
          teamId,
          selfManage: r.self_manage,
          restrictedByRole: r.restricted_by_role,
          roleProfileIds: view.role_profiles,
          allowSameDayAdd: r.allow_same_day_add,
          allowSameDayCancel: r.allow_same_day_cancel,
          allowSameDayEdit: r.allow_same_day_edit,
        });
      }
      if (contacts) view.contacts = contacts.get(view.id) ?? [];
      return view;
    });
  }

  /** The rotas' contacts by rota, in the order added, with their UserBase (`can_manage` through any permission); one query each for contacts and users. */
}

/** The list's order: `s` in direction `o`, ties by id in the same direction. */
export function sortRotas(views: RotaView[], sort: RotaSort, direction: 'asc' | 'desc'): RotaView[] {
  const compare: Record<RotaSort, (a: RotaView, b: RotaView) => number> = {
    rota_title: (a, b) => byText(a.name, b.name),
    start_date: (a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0),
    end_date: (a, b) => byEnd(a.end, b.end),
    team_name: (a, b) => byText(a.team_name, b.team_name),
  };
  const sign = direction === 'asc' ? 1 : -1;
  return [...views].sort((a, b) => sign * (compare[sort](a, b) || a.id - b.id));
}

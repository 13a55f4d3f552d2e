import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Caller, OrganisationFactsReader, type TeamObject, Teams } from '#app/identity';
import { type ListQuery, NotFoundError, offsetOf, type Sql, sql, tenantScope, tenantSql } from '#app/platform';
import type { RotaTimeslot, Weekday } from '../domain/weekly-timeslots.js';

export const SHIFT_PATTERN_INCLUDES = ['pattern', 'category', 'teams', 'rotas'] as const;
export type ShiftPatternInclude = (typeof SHIFT_PATTERN_INCLUDES)[number];
/**
 * `s`: created_at is the default (the interface's stated default, docs/rota-domain.md#shift-patterns), then
 * name and teams.
 */
export const SHIFT_PATTERN_SORTS = ['created_at', 'name', 'teams'] as const;
export type ShiftPatternSort = (typeof SHIFT_PATTERN_SORTS)[number];

/** The Pattern timeslot entry (docs/rota-domain.md#record-shapes): times `HH:MM:SS`. */
export interface PatternTimeslotView {
  id: number;
  weekday_start: Weekday;
  start_time: string;
  weekday_end: Weekday;
  end_time: string;
  min: number;
  ideal: number;
  max: number;
}

/**
 * The Shift pattern (docs/rota-domain.md#shift-patterns; http/shift-pattern.responses.ts documents it); the
 * optional fields come with `include`.
 */
export interface ShiftPatternView {
  id: number;
  name: string;
  min: number;
  ideal: number;
  max: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  pattern?: PatternTimeslotView[];
  category?: { id: number; name: string } | null;
  teams?: TeamObject[];
  rotas?: { id: number; name: string }[];
}

export interface ShiftPatternFilters {
  /** Case-insensitive part of the name. */
  readonly q?: string;
  /** true: only archived patterns; false: only the others. */
  readonly archived: boolean;
  /** Only patterns used by a (non-archived) rota of these teams; teams the caller does not see are left out. */
  readonly teams?: readonly number[];
}

/** What rota create and replace need of a pattern (they refuse an unknown or archived one with a 422 on pattern_id). */
export interface PatternForRota {
  readonly id: number;
  readonly timeslots: RotaTimeslot[];
  readonly archived: boolean;
}

type Row = {
  id: string;
  name: string;
  min: number;
  ideal: number;
  max: number;
  category_id: string | null;
  timeslots?: RotaTimeslot[];
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
};

/** `YYYY-MM-DD HH:MM:SS`, a wall-clock time in the organisation's zone (docs/rota-domain.md#times-in-answers). */
const stamp = (column: string, zone: string) =>
  sql`to_char(${sql.raw(column)} AT TIME ZONE ${zone}::text, 'YYYY-MM-DD HH24:MI:SS')`;

const columns = (zone: string, withTimeslots: boolean) =>
  sql`sp.id, sp.name, sp.min, sp.ideal, sp.max, sp.category_id${sql.raw(withTimeslots ? ', sp.timeslots' : '')},
      ${stamp('sp.created_at', zone)} AS created_at, ${stamp('sp.updated_at', zone)} AS updated_at, ${stamp('sp.deleted_at', zone)} AS deleted_at`;

const ORDER: Record<ShiftPatternSort, string> = {
  created_at: 'sp.created_at',
  name: 'lower(sp.name)',
  teams: 'lower(first_team.name)',
};

const byName = <T extends { name: string; id: number | string }>(a: T, b: T) => {
  const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : Number(a.id) - Number(b.id);
};

/** A timeslot as the records show it (times `HH:MM:SS`): patterns here, written timeslots in a rota's history. */
export const timeslotView = (t: RotaTimeslot): PatternTimeslotView => ({
  id: t.id,
  weekday_start: t.weekday_start,
  start_time: `${t.start_time}:00`,
  weekday_end: t.weekday_end,
  end_time: `${t.end_time}:00`,
  min: t.min,
  ideal: t.ideal,
  max: t.max,
});

/**
 * Shift patterns for the API (`manage-rotas` holders; the controller checks the permission).
 * A pattern belongs to the organisation, not to a team; what it shows of rotas and teams (the
 * `teams` and `rotas` includes, the `teams` filter and sort) is limited to the non-archived rotas
 * of teams the caller sees (docs/http-conventions.md#filters-and-query-parsing:
 * teams the caller cannot see are simply left out).
 */
@Injectable()
export class ShiftPatternQueries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly teams: Teams,
    private readonly facts: OrganisationFactsReader,
  ) {}

  async list(
    caller: Caller,
    filters: ShiftPatternFilters,
    q: ListQuery<ShiftPatternSort, ShiftPatternInclude>,
  ): Promise<{ items: ShiftPatternView[]; total: number }> {
    const needsSeen =
      filters.teams !== undefined || q.sort === 'teams' || q.include.has('teams') || q.include.has('rotas');
    const [{ timezone }, seen] = await Promise.all([
      this.facts.of(caller),
      needsSeen ? this.teams.seenBy(caller, caller.userId) : Promise.resolve(new Set<number>()),
    ]);
    const parts: Sql[] = [
      tenantScope('sp'),
      sql.raw(filters.archived ? 'sp.deleted_at IS NOT NULL' : 'sp.deleted_at IS NULL'),
    ];
    if (filters.q) parts.push(sql`strpos(lower(sp.name), lower(${filters.q}::text)) > 0`);
    if (filters.teams) {
      const teams = filters.teams.filter((id) => seen.has(id));
      parts.push(
        sql`EXISTS (SELECT 1 FROM rotas r WHERE ${tenantScope('r')} AND r.pattern_id = sp.id AND NOT r.archived AND r.team_id = ANY(${teams}::bigint[]))`,
      );
    }
    const where = sql.join(parts, ' AND ');
    const count = tenantSql(caller)`SELECT count(*)::int AS total FROM shift_patterns sp WHERE ${where}`;
    const [{ total }]: { total: number }[] = await this.dataSource.query(count.text, count.values);
    const join = q.sort === 'teams' ? await this.firstTeamJoin(caller, seen) : sql.raw('');
    const direction = q.direction === 'asc' ? 'ASC' : 'DESC';
    const order = sql.raw(`${ORDER[q.sort ?? 'created_at']} ${direction} NULLS LAST, sp.id ${direction}`);
    const page = tenantSql(caller)`SELECT ${columns(timezone, q.include.has('pattern'))} FROM shift_patterns sp ${join}
        WHERE ${where} ORDER BY ${order} LIMIT ${q.perPage} OFFSET ${offsetOf(q)}`;
    const rows: Row[] = await this.dataSource.query(page.text, page.values);
    return { items: await this.views(caller, rows, q.include, seen), total };
  }

  /** One pattern, archived or not; another organisation's or an unknown id is a 404. */
  async get(
    caller: Caller,
    id: number,
    include: ReadonlySet<ShiftPatternInclude> = new Set(),
  ): Promise<ShiftPatternView> {
    const needsSeen = include.has('teams') || include.has('rotas');
    const [{ timezone }, seen] = await Promise.all([
      this.facts.of(caller),
      needsSeen ? this.teams.seenBy(caller, caller.userId) : Promise.resolve(new Set<number>()),
    ]);
    const q = tenantSql(
      caller,
    )`SELECT ${columns(timezone, include.has('pattern'))} FROM shift_patterns sp WHERE ${tenantScope('sp')} AND sp.id = ${id}`;
    const rows: Row[] = await this.dataSource.query(q.text, q.values);
    if (!rows[0]) throw new NotFoundError('Shift pattern');
    return (await this.views(caller, rows, include, seen))[0]!;
  }

  /** For rota create and replace: the pattern's timeslots (with the pattern's ids) and whether it is archived; null when unknown or another organisation's. */
  async forRota(caller: Pick<Caller, 'organisationId'>, id: number): Promise<PatternForRota | null> {
    const q = tenantSql(
      caller,
    )`SELECT sp.id, sp.timeslots, sp.deleted_at IS NOT NULL AS archived FROM shift_patterns sp WHERE ${tenantScope('sp')} AND sp.id = ${id}`;
    const rows: { id: string; timeslots: RotaTimeslot[]; archived: boolean }[] = await this.dataSource.query(
      q.text,
      q.values,
    );
    const row = rows[0];
    return row ? { id: Number(row.id), timeslots: row.timeslots, archived: row.archived } : null;
  }

  /**
   * `s=teams`: each pattern's first team (by name, then id) among the seen teams whose
   * non-archived rotas use it, as `first_team.name`. Team names are identity's: they enter the
   * query as a table of parameters (as the claims list does with user names).
   */
  private async firstTeamJoin(caller: Caller, seen: ReadonlySet<number>): Promise<Sql> {
    const q = tenantSql(
      caller,
    )`SELECT DISTINCT r.team_id FROM rotas r WHERE ${tenantScope('r')} AND NOT r.archived AND r.team_id = ANY(${[...seen]}::bigint[])`;
    const rows: { team_id: string }[] = await this.dataSource.query(q.text, q.values);
    const objects = await this.teams.objects(
      caller,
      rows.map((r) => Number(r.team_id)),
    );
    const ids = [...objects.keys()];
    const names = ids.map((id) => objects.get(id)!.name);
    return sql`LEFT JOIN LATERAL (
        SELECT tn.name FROM rotas r JOIN unnest(${ids}::bigint[], ${names}::text[]) AS tn(id, name) ON tn.id = r.team_id
         WHERE ${tenantScope('r')} AND r.pattern_id = sp.id AND NOT r.archived ORDER BY lower(tn.name), tn.id LIMIT 1) first_team ON true`;
  }

  /** Rows as views, each include read once for the whole page. */
  private async views(
    caller: Caller,
    rows: Row[],
    include: ReadonlySet<ShiftPatternInclude>,
    seen: ReadonlySet<number>,
  ): Promise<ShiftPatternView[]> {
    const categoryIds = [...new Set(rows.flatMap((r) => (r.category_id === null ? [] : [Number(r.category_id)])))];
    const [categories, usage] = await Promise.all([
      include.has('category')
        ? this.teams.activityCategories(caller, categoryIds)
        : Promise.resolve(new Map<number, { id: number; name: string }>()),
      include.has('teams') || include.has('rotas')
        ? this.usage(
            caller,
            rows.map((r) => Number(r.id)),
            seen,
          )
        : Promise.resolve(null),
    ]);
    return rows.map((r) => {
      const id = Number(r.id);
      const view: ShiftPatternView = {
        id,
        name: r.name,
        min: r.min,
        ideal: r.ideal,
        max: r.max,
        created_at: r.created_at,
        updated_at: r.updated_at,
        deleted_at: r.deleted_at,
      };
      if (include.has('pattern')) view.pattern = (r.timeslots ?? []).map(timeslotView);
      if (include.has('category'))
        view.category = r.category_id === null ? null : (categories.get(Number(r.category_id)) ?? null);
      if (include.has('teams')) view.teams = usage?.teams.get(id) ?? [];
      if (include.has('rotas')) view.rotas = usage?.rotas.get(id) ?? [];
      return view;
    });
  }

  /** The non-archived rotas of seen teams made from (or replaced with) each pattern, and their teams: two queries for the whole page. */
  private async usage(caller: Caller, patternIds: readonly number[], seen: ReadonlySet<number>) {
    const q = tenantSql(caller)`SELECT r.id, r.name, r.team_id, r.pattern_id FROM rotas r
        WHERE ${tenantScope('r')} AND r.pattern_id = ANY(${patternIds}::bigint[]) AND NOT r.archived AND r.team_id = ANY(${[...seen]}::bigint[])`;
    const rows: { id: string; name: string; team_id: string; pattern_id: string }[] = await this.dataSource.query(
      q.text,
      q.values,
    );
    const objects = await this.teams.objects(caller, [...new Set(rows.map((r) => Number(r.team_id)))]);
    const rotas = new Map<number, { id: number; name: string }[]>();
    const teams = new Map<number, TeamObject[]>();
    for (const r of rows) {
      const pattern = Number(r.pattern_id);
      rotas.set(pattern, [...(rotas.get(pattern) ?? []), { id: Number(r.id), name: r.name }]);
      const team = objects.get(Number(r.team_id));
      const known = teams.get(pattern) ?? [];
      if (team && !known.some((t) => t.id === team.id)) teams.set(pattern, [...known, team]);
    }
    for (const list of rotas.values()) list.sort(byName);
    for (const list of teams.values()) list.sort(byName);
    return { rotas, teams };
  }
}

import { ConflictError, NotFoundError } from '#app/platform';
import { oneRotaPerTeam } from '../domain/one-rota-per-team.js';
import { type Refusal, refusal, requiredMessage, throwIfRefused } from '../domain/refusals.js';
import { checkRotaDates, checkRotaName } from '../domain/rota-rules.js';
import { applyTimeslots, decideTimeslotWrite, type IdSource, identify } from '../domain/timeslot-timeline.js';
import { checkWeekdays } from '../domain/weekdays-rules.js';
import type { WeeklyTimeslot } from '../domain/weekly-timeslots.js';
import { type RotaEvent, type RotaSettings, streamOf, type TeamEvent } from '../rotas.events.js';
import { calendarData, evolve, type RotaState } from './rota.js';

/**
 * The decisions of rota administration: create (one rota per team, the one-rota-per-team rule
 * across the team's rotas), update (settings, and the contact set replaced) and update timeslots.
 * Pure: the handlers read everything outside the streams first (teams, role profiles, users, the
 * pattern, drawn ids) and pass it in the context.
 */

/** An id from a body list with the error key of its item (`team.0.id` for `{ id }`, `team.0` for a bare id). */
export interface Named {
  readonly id: number;
  readonly field: string;
}

/**
 * docs/rota-domain.md#creating-rotas: a colour from a fixed palette when the body gives none, chosen by the
 * rota's id (so replay and retries agree).
 */
export const ROTA_PALETTE = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
  '#393b79',
  '#637939',
] as const;
export const paletteColour = (rotaId: number): string => ROTA_PALETTE[rotaId % ROTA_PALETTE.length]!;

// ---- The team stream ------------------------------------------------------------------------------

/** `rotas.Team-<id>`: the rotas created for a team, in order. */
export interface TeamRotasState {
  readonly teamId: number;
  readonly organisationId: number;
  readonly rotaIds: readonly number[];
}

export function evolveTeam(state: TeamRotasState | null, event: TeamEvent): TeamRotasState | null {
  switch (event.type) {
    case 'rotas.TeamRotaAdded': {
      const d = event.data;
      return { teamId: d.teamId, organisationId: d.organisationId, rotaIds: [...(state?.rotaIds ?? []), d.rotaId] };
    }
  }
}

// ---- Several streams as one state (create) ---------------------------------------------------------

/** The streams a create decides over: the named teams' streams and every rota of those teams. */
export interface TeamsAndRotas {
  readonly rotas: ReadonlyMap<number, RotaState>;
  readonly teams: ReadonlyMap<number, TeamRotasState>;
}

export type CreateEvent = RotaEvent | TeamEvent;

/** The rota an event is about (a contact event's `id` is the contact's). */
export const rotaIdOf = (event: RotaEvent): number =>
  event.type === 'rotas.RotaContactAdded' || event.type === 'rotas.RotaContactRemoved'
    ? event.data.rotaId
    : event.data.id;

/** The stream an event of a create goes to. */
export const streamOfEvent = (event: CreateEvent): string =>
  event.type === 'rotas.TeamRotaAdded' ? streamOf.team(event.data.teamId) : streamOf.rota(rotaIdOf(event));

/** The fold of several streams' events into one TeamsAndRotas (specs give events; the handler builds it from the streams' states). */
export function evolveTeamsAndRotas(state: TeamsAndRotas | null, event: CreateEvent): TeamsAndRotas {
  const rotas = new Map(state?.rotas);
  const teams = new Map(state?.teams);
  if (event.type === 'rotas.TeamRotaAdded') {
    const next = evolveTeam(teams.get(event.data.teamId) ?? null, event);
    if (next) teams.set(event.data.teamId, next);
  } else {
    const id = rotaIdOf(event);
    const next = evolve(rotas.get(id) ?? null, event);
    if (next) rotas.set(id, next);
  }
  return { rotas, teams };
}

// ---- Create ---------------------------------------------------------------------------------------

/** The settings create and update both take; absent or null means the default (create) or "as it is" (update). */
interface RotaSettingsBody {
  readonly colour?: string | null;
  readonly selfManage?: boolean | null;
  readonly allowSameDayAdd?: boolean | null;
  readonly allowSameDayCancel?: boolean | null;
  readonly allowSameDayEdit?: boolean | null;
  readonly restrictedByRole?: boolean | null;
  readonly requireFullTimeslot?: boolean | null;
  readonly roleProfiles?: readonly Named[] | null;
}

/** `POST /api/rotas`: the body, with the ids drawn for it. Absent or null flags take the interface's defaults
 * (docs/rota-domain.md#creating-rotas). */
export interface CreateRotas extends RotaSettingsBody {
  readonly organisationId: number;
  /** One new rota id per entry of `teams`, in order. */
  readonly ids: readonly number[];
  readonly teams: readonly Named[];
  readonly name: string;
  readonly startDate: string;
  readonly endDate: string | null;
  readonly patternId: number;
  readonly contacts?: readonly Named[] | null;
}

/** A shift pattern as a new rota needs it (its timeslots may carry the pattern's own ids: the rota gives them new ones). */
export interface PatternForRota {
  readonly id: number;
  readonly archived: boolean;
  readonly timeslots: readonly WeeklyTimeslot[];
}

/** A timeslot without any id it carries (identify would keep an id already there). */
const weekly = ({
  weekday_start,
  start_time,
  weekday_end,
  end_time,
  min,
  ideal,
  max,
}: WeeklyTimeslot): WeeklyTimeslot => ({ weekday_start, start_time, weekday_end, end_time, min, ideal, max });

export interface CreateRotasContext {
  /** The pattern of `patternId` when it is one of the organisation's; null otherwise. */
  readonly pattern: PatternForRota | null;
  /** Which named teams are teams of the organisation. */
  readonly teamsOfOrganisation: ReadonlySet<number>;
  /** The teams the caller's manage-rotas reaches. */
  readonly managedTeams: ReadonlySet<number>;
  /** Which named role profiles are the organisation's. */
  readonly roleProfilesOfOrganisation: ReadonlySet<number>;
  /** Which named contacts are users of the organisation. */
  readonly usersOfOrganisation: ReadonlySet<number>;
  readonly timeslotIds: IdSource;
  readonly contactIds: IdSource;
}

/** Each id once, in the order first given. */
const distinct = (items: readonly Named[]): number[] => [...new Set(items.map((i) => i.id))];

const unknownRefusals = (
  items: readonly Named[] | null | undefined,
  known: ReadonlySet<number>,
  what: string,
): Refusal[] =>
  (items ?? [])
    .filter((i) => !known.has(i.id))
    .map((i) => refusal(i.field, `The selected ${i.field} is invalid: not ${what} of the organisation.`));

/** docs/rota-domain.md#creating-rotas: `role_profiles` is required and non-empty when `restricted_by_role`. */
const restrictionRefusal = (restricted: boolean, roleProfiles: readonly number[]): Refusal[] =>
  restricted && roleProfiles.length === 0
    ? [refusal('role_profiles', 'The role_profiles field is required when restricted_by_role is true.')]
    : [];

/**
 * docs/rota-domain.md#creating-rotas: one rota per team in `teams`, all or nothing. The body's rules (name 1–255,
 * end not before start, the pattern the organisation's and not archived, role profiles required
 * when restricted, role profiles and contacts the organisation's), each team a team of the
 * organisation that the caller's manage-rotas reaches, listed once (422 naming `team.N.id`), and
 * one rota per team per day: a running team rota ends the day before the new start (RotaEnded,
 * `superseded`), a team rota starting on or after it is a clash (422 naming `team`). Every refusal
 * is named in one 422. The pattern's timeslots are copied with new ids; each new rota is recorded
 * in its team's stream too.
 *
 * `state` holds the named teams' streams and all their rotas. A team stream listing a rota that is
 * not in it means a create for that team committed after the handler read the team's rotas: the
 * race is lost (409), as the append would have been.
 */
export function decideCreateRotas(
  state: TeamsAndRotas | null,
  cmd: CreateRotas,
  ctx: CreateRotasContext,
): CreateEvent[] {
  const rotas = state?.rotas ?? new Map<number, RotaState>();
  const refusals: Refusal[] = [...checkRotaName(cmd.name, 'name'), ...checkRotaDates(cmd.startDate, cmd.endDate)];
  if (!ctx.pattern)
    refusals.push(
      refusal('pattern_id', 'The selected pattern_id is invalid: not a shift pattern of the organisation.'),
    );
  else if (ctx.pattern.archived)
    refusals.push(
      refusal('pattern_id', 'The selected pattern_id is archived: an archived pattern cannot be used for new rotas.'),
    );
  if (cmd.teams.length === 0) refusals.push(refusal('team', requiredMessage('team')));
  const seenTeams = new Set<number>();
  const valid: Array<{ team: number; id: number }> = [];
  cmd.teams.forEach((t, i) => {
    if (seenTeams.has(t.id))
      refusals.push(refusal(t.field, `The ${t.field} field names a team listed before: a team gets one rota.`));
    else if (!ctx.teamsOfOrganisation.has(t.id))
      refusals.push(refusal(t.field, `The selected ${t.field} is invalid: not a team of the organisation.`));
    else if (!ctx.managedTeams.has(t.id))
      refusals.push(refusal(t.field, `The selected ${t.field} is not a team your manage-rotas permission reaches.`));
    else valid.push({ team: t.id, id: cmd.ids[i]! });
    seenTeams.add(t.id);
  });
  const restrictedByRole = cmd.restrictedByRole ?? false;
  const roleProfileIds = distinct(cmd.roleProfiles ?? []).sort((a, b) => a - b);
  refusals.push(...unknownRefusals(cmd.roleProfiles, ctx.roleProfilesOfOrganisation, 'a role profile'));
  refusals.push(...restrictionRefusal(restrictedByRole, roleProfileIds));
  refusals.push(...unknownRefusals(cmd.contacts, ctx.usersOfOrganisation, 'a user'));

  const ends = new Map<number, Array<{ rota_id: number; end_date: string }>>();
  for (const { team } of valid) {
    const listed = state?.teams.get(team)?.rotaIds ?? [];
    if (listed.some((id) => !rotas.has(id)))
      throw new ConflictError(
        'Another rota was created for a team of this request at the same time; reload and try again.',
      );
    const teamRotas = [...rotas.values()].filter((r) => r.teamId === team && r.organisationId === cmd.organisationId);
    const rule = oneRotaPerTeam(
      teamRotas.map((r) => ({ rota_id: r.id, start_date: r.startDate, end_date: r.endDate, archived: r.archived })),
      cmd.startDate,
    );
    if (rule.ok) ends.set(team, [...rule.value.end]);
    else refusals.push(...rule.refusals);
  }
  throwIfRefused(refusals);

  const pattern = ctx.pattern!;
  const contactUsers = distinct(cmd.contacts ?? []);
  const events: CreateEvent[] = [];
  for (const { team, id } of valid) {
    for (const end of ends.get(team) ?? [])
      events.push(supersede(rotas.get(end.rota_id)!, end.end_date, id, cmd.startDate));
    const settings: RotaSettings = {
      name: cmd.name,
      colour: cmd.colour ?? paletteColour(id),
      selfManage: cmd.selfManage ?? false,
      allowSameDayAdd: cmd.allowSameDayAdd ?? true,
      allowSameDayCancel: cmd.allowSameDayCancel ?? false,
      allowSameDayEdit: cmd.allowSameDayEdit ?? false,
      restrictedByRole,
      roleProfileIds,
      requireFullTimeslot: cmd.requireFullTimeslot ?? false,
    };
    const base = { id, organisationId: cmd.organisationId };
    events.push({
      type: 'rotas.RotaCreated',
      data: {
        ...base,
        teamId: team,
        patternId: pattern.id,
        ...settings,
        startDate: cmd.startDate,
        endDate: cmd.endDate,
        timeslots: identify(pattern.timeslots.map(weekly), ctx.timeslotIds),
      },
    });
    for (const userId of contactUsers)
      events.push({
        type: 'rotas.RotaContactAdded',
        data: { id: ctx.contactIds(), organisationId: cmd.organisationId, rotaId: id, userId },
      });
    events.push({
      type: 'rotas.TeamRotaAdded',
      data: { teamId: team, organisationId: cmd.organisationId, rotaId: id, startDate: cmd.startDate },
    });
  }
  return events;
}

/** A running rota ended the day before a new rota of its team starts. */
function supersede(rota: RotaState, endDate: string, by: number, newStart: string): RotaEvent {
  return {
    type: 'rotas.RotaEnded',
    data: {
      id: rota.id,
      organisationId: rota.organisationId,
      effectiveFrom: newStart,
      calendar: calendarData({ ...rota, endDate }),
      endDate,
      reason: 'superseded',
      supersededBy: by,
    },
  };
}

// ---- Update -----------------------------------------------------------------------------------------

/** `PUT /api/rotas/{id}`: absent or null leaves a field as it is. */
export interface UpdateRota extends RotaSettingsBody {
  readonly organisationId: number;
  readonly name?: string | null;
  /** The whole new contact set (user ids); null or absent leaves the set. */
  readonly contacts?: readonly Named[] | null;
}

export interface UpdateRotaContext {
  readonly roleProfilesOfOrganisation: ReadonlySet<number>;
  readonly usersOfOrganisation: ReadonlySet<number>;
  readonly contactIds: IdSource;
}

const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * docs/rota-domain.md#updating-a-rota: an archived rota refuses every change (409); the name 1–255; role profiles
 * and contacts the organisation's; a rota restricted by role after the change needs role profiles.
 * Only what differs is recorded (RotaChanged with the changed settings); `contacts` replaces the
 * set: users no longer listed are removed, new ones added (their contact ids drawn), those staying
 * keep their contact record. Nothing to change is `[]`.
 */
export function decideUpdateRota(state: RotaState | null, cmd: UpdateRota, ctx: UpdateRotaContext): RotaEvent[] {
  if (!state || state.organisationId !== cmd.organisationId) throw new NotFoundError('Rota');
  if (state.archived) throw new ConflictError('The rota is archived: an archived rota cannot be changed.');
  const refusals: Refusal[] = cmd.name === undefined || cmd.name === null ? [] : checkRotaName(cmd.name, 'name');
  refusals.push(...unknownRefusals(cmd.roleProfiles, ctx.roleProfilesOfOrganisation, 'a role profile'));
  const roleProfileIds = cmd.roleProfiles
    ? distinct(cmd.roleProfiles).sort((a, b) => a - b)
    : [...state.roleProfileIds];
  const restrictedByRole = cmd.restrictedByRole ?? state.restrictedByRole;
  refusals.push(...restrictionRefusal(restrictedByRole, roleProfileIds));
  refusals.push(...unknownRefusals(cmd.contacts, ctx.usersOfOrganisation, 'a user'));
  throwIfRefused(refusals);

  const wanted: RotaSettings = {
    name: cmd.name ?? state.name,
    colour: cmd.colour ?? state.colour,
    selfManage: cmd.selfManage ?? state.selfManage,
    allowSameDayAdd: cmd.allowSameDayAdd ?? state.allowSameDayAdd,
    allowSameDayCancel: cmd.allowSameDayCancel ?? state.allowSameDayCancel,
    allowSameDayEdit: cmd.allowSameDayEdit ?? state.allowSameDayEdit,
    restrictedByRole,
    roleProfileIds,
    requireFullTimeslot: cmd.requireFullTimeslot ?? state.requireFullTimeslot,
  };
  const changes: Partial<RotaSettings> = {};
  for (const key of Object.keys(wanted) as (keyof RotaSettings)[]) {
    const [now, was] = [wanted[key], state[key]];
    const differs = Array.isArray(now) ? !sameIds(now, was as readonly number[]) : now !== was;
    if (differs) (changes as Record<string, unknown>)[key] = now;
  }
  const base = { organisationId: state.organisationId, rotaId: state.id };
  const events: RotaEvent[] = Object.keys(changes).length
    ? [{ type: 'rotas.RotaChanged', data: { id: state.id, organisationId: state.organisationId, changes } }]
    : [];
  if (cmd.contacts) {
    const users = distinct(cmd.contacts);
    const keep = new Set(users);
    const removed = [...state.contacts].filter(([userId]) => !keep.has(userId)).sort((a, b) => a[1] - b[1]);
    for (const [userId, contactId] of removed)
      events.push({ type: 'rotas.RotaContactRemoved', data: { id: contactId, ...base, userId } });
    for (const userId of users.filter((u) => !state.contacts.has(u)))
      events.push({ type: 'rotas.RotaContactAdded', data: { id: ctx.contactIds(), ...base, userId } });
  }
  return events;
}

// ---- Update timeslots -------------------------------------------------------------------------------

/** `PUT /api/rotas/{id}/timeslots`: the body as sent (its rules are checked here). */
export interface UpdateTimeslots {
  readonly organisationId: number;
  readonly from: unknown;
  readonly to?: unknown;
  readonly weekdays: unknown;
}

export interface UpdateTimeslotsContext {
  /** Today in the organisation's zone. */
  readonly today: string;
  readonly newIds: IdSource;
}

/**
 * docs/rota-domain.md#timeslot-versions: the weekdays' timeslots (checkWeekdays: a weekday omitted or empty
 * closes the rota that weekday in the range) written over [from, to] (from today or later; to
 * absent: from `from` on, else what stood after `to` stands again), each with a new id. An
 * archived rota refuses it (409). One RotaTimeslotsChanged, effective from `from`, with the
 * calendar after it.
 */
export function decideUpdateTimeslots(
  state: RotaState | null,
  cmd: UpdateTimeslots,
  ctx: UpdateTimeslotsContext,
): RotaEvent[] {
  if (!state || state.organisationId !== cmd.organisationId) throw new NotFoundError('Rota');
  if (state.archived) throw new ConflictError('The rota is archived: an archived rota cannot be changed.');
  const slots = checkWeekdays(cmd.weekdays);
  const write = decideTimeslotWrite({ from: cmd.from, to: cmd.to }, slots.ok ? slots.value : [], ctx);
  throwIfRefused([...(write.ok ? [] : write.refusals), ...(slots.ok ? [] : slots.refusals)]);
  if (!write.ok) return [];
  const { from, to, timeslots } = write.value;
  const calendar = calendarData({ ...state, timeline: applyTimeslots(state.timeline, write.value) });
  return [
    {
      type: 'rotas.RotaTimeslotsChanged',
      data: {
        id: state.id,
        organisationId: state.organisationId,
        effectiveFrom: from,
        calendar,
        from,
        to: to ?? null,
        timeslots: [...timeslots],
      },
    },
  ];
}

import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { combineStreams, EventStore, streamsById } from '#app/event-store';
import { type Caller, metadataOf, OrganisationFactsReader } from '#app/identity';
import { NotFoundError, ValidationError } from '#app/platform';
import { type RecurrenceInput, seriesPastCalendar, validateRecurrence } from '../domain/series-dates.js';
import { toFieldErrors } from '../domain/refusals.js';
import { RotaIds } from '../next-id.js';
import { gateOf, streamOf } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { evolve as evolveSeries, type SeriesState } from './repeating-shift.js';
import { RepeatingShiftQueries } from './repeating-shift.queries.js';
import { BookingFactsReader } from './booking-facts.js';
import { shiftToChange } from './shift-access.js';
import { evolve as evolveShift, type ShiftState } from './shift.js';
import {
  changePlanHolds,
  type ChangeStates,
  decideChangeShift,
  type EditMode,
  laterOccurrences,
  listedStill,
  occurrenceAt,
  planChange,
  timesOfDayOf,
} from './shift-changes.js';
import { datesTouched, parseShiftTimes } from './shift-times.js';
import { ShiftQueries } from './shift.queries.js';

/** The update body, as the controller passes it on. */
export interface ShiftChange {
  readonly start_datetime: string;
  readonly end_datetime: string;
  /** As sent: undefined (absent), null or an object. */
  readonly recurrence: unknown;
  readonly mode: EditMode;
  readonly ignoreOnHold: boolean;
  readonly confirmRoleRestriction: boolean;
}

export class ChangeShiftCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly shiftId: number,
    readonly change: ShiftChange,
  ) {
    super();
  }
}

/**
 * `PUT /api/rota/shifts/{id}` (decideChangeShift). Before the write: the shift (404 / 403), the
 * access rules (403), the times and the plan (422), the later occurrences a recurring edit acts
 * on, and a new series id when one starts. Then one write (docs/adr/0011) over the shift's stream,
 * its series', the new series' and each later occurrence's, through the gates of every rota-day and
 * user-day the new times touch, holding the rota's calendar gate: the rota and the shifts that could
 * clash are read after the gates. The write is planned again by the store when an occurrence
 * appeared meanwhile (PlanMoved). Cancelling occurrences moves no gate (they only free places).
 */
@CommandHandler(ChangeShiftCommand)
export class ChangeShiftHandler implements ICommandHandler<ChangeShiftCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly policy: RotasPolicy,
    private readonly facts: BookingFactsReader,
    private readonly shifts: ShiftQueries,
    private readonly series: RepeatingShiftQueries,
    private readonly organisations: OrganisationFactsReader,
    private readonly ids: RotaIds,
  ) {}

  async execute({ caller, shiftId, change }: ChangeShiftCommand): Promise<void> {
    const [{ timezone: zone, today }, reach] = await Promise.all([
      this.organisations.of(caller),
      this.policy.reach(caller),
    ]);
    let newSeriesId: number | null = null;
    await this.store.write({
      plan: async ({ now }) => {
        const { row } = await shiftToChange(this.shifts, this.facts, caller, reach, 'edit', shiftId, zone);
        const times = parseShiftTimes(change, zone);
        throwIfPastCalendar(change, times, zone);
        const request = {
          times,
          mode: change.mode,
          recurrence: change.recurrence,
          ignoreOnHold: change.ignoreOnHold,
          confirmRoleRestriction: change.confirmRoleRestriction,
        };
        const [series, bookers] = await Promise.all([
          row.seriesId === null ? null : this.series.row(caller, row.seriesId),
          this.facts.bookers(caller, [row.userId]),
        ]);
        const plan = planChange(row, series, request);
        if ((plan.kind === 'split' || plan.kind === 'start') && newSeriesId === null)
          newSeriesId = await this.ids.next('series');
        const seriesId = 'seriesId' in plan ? plan.seriesId : null;
        const later =
          seriesId === null
            ? []
            : laterOccurrences(await this.shifts.ofSeries(caller, seriesId, row.date), row, seriesId, now);
        // Only a retime books new times on the later occurrences' days; their gates are taken from the rows (a row moved since makes the append lose).
        const tod = timesOfDayOf(times);
        const moves = plan.kind === 'retime' ? later.flatMap((o) => occurrenceAt(o.date, tod, zone) ?? []) : [];
        const hasNew = plan.kind === 'split' || plan.kind === 'start';
        return {
          row,
          request,
          plan,
          seriesId,
          later,
          bookers,
          spans: [times, ...moves],
          newSeries: hasNew ? newSeriesId : null,
        };
      },
      gates: ({ row, spans }) => ({
        advance: spans.flatMap((t) => [
          gateOf.rotaDay(row.rotaId, t.date),
          ...datesTouched(t, zone).map((d) => gateOf.userDay(row.userId, d)),
        ]),
        hold: [gateOf.rotaCalendar(row.rotaId)],
      }),
      facts: async (db, { row, request, spans, seriesId }) => ({
        ...(await this.facts.read(
          db,
          caller,
          {
            rotaIds: [row.rotaId],
            users: { ids: [row.userId], spans },
            days: [{ rotaId: row.rotaId, date: request.times.date }],
          },
          zone,
        )),
        // Read again inside the write: an occurrence the worker booked since the plan makes it plan again.
        listed: seriesId === null ? [] : await this.shifts.ofSeries(caller, seriesId, row.date, db),
      }),
      streams: ({ row, seriesId, newSeries, later }) =>
        combineStreams(
          {
            shift: { streamId: streamOf.shift(row.id), evolve: evolveShift },
            ...(seriesId !== null && { series: { streamId: streamOf.series(seriesId), evolve: evolveSeries } }),
            ...(newSeries !== null && {
              newSeries: { streamId: streamOf.series(newSeries), expect: 'no_stream' as const },
            }),
          },
          streamsById(
            later.map((o) => o.id),
            streamOf.shift,
            evolveShift,
          ),
        ),
      holds: (states, { plan: p, facts, now }) =>
        listedStill(p.later, p.seriesId === null ? [] : laterOccurrences(facts.listed, p.row, p.seriesId, now)) &&
        changePlanHolds(changeStates(states, p), p.request, p.plan),
      decide: (states, { plan: p, facts, now }) => {
        const rota = facts.rotas.get(p.row.rotaId);
        if (!rota) throw new NotFoundError('Shift');
        return decideChangeShift(changeStates(states, p), p.request, {
          zone,
          today,
          now,
          rota,
          reach,
          newSeriesId: p.newSeries,
          booker: p.bookers.get(p.row.userId),
          userShifts: facts.userShifts,
          rotaDayShifts: facts.rotaDays.get(`${p.row.rotaId} ${p.request.times.date}`) ?? [],
        });
      },
      metadata: metadataOf(caller),
    });
  }
}

/** The states decideChangeShift reads, from the streams the write named (the series only when the plan has one). */
function changeStates(
  states: { readonly shift: ShiftState | null } & Readonly<Record<string, unknown>>,
  plan: { readonly later: readonly { id: number }[] },
): ChangeStates {
  return {
    shift: states.shift,
    series: (states.series ?? null) as SeriesState | null,
    later: plan.later.map((o) => (states[o.id] ?? null) as ShiftState | null),
  };
}

/** A new pattern on a recurring edit whose series would run past the calendar's end (series-dates.ts seriesPastCalendar). */
function throwIfPastCalendar(
  change: ShiftChange,
  times: { startWall: string; endWall: string; date: string },
  zone: string,
): void {
  const pattern = change.recurrence;
  if (change.mode !== 'recurring' || typeof pattern !== 'object' || pattern === null || Array.isArray(pattern)) return;
  if (validateRecurrence(pattern, times.date).length) return; // planChange names those
  const refusals = seriesPastCalendar(pattern as RecurrenceInput, times, zone);
  if (refusals.length) throw new ValidationError(toFieldErrors(refusals));
}

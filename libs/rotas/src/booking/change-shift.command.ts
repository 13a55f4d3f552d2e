import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore, type StreamRead, type WriteQuery } from '#app/event-store';
import { type Caller, metadataOf, OrganisationFactsReader } from '#app/identity';
import { NotFoundError, ValidationError } from '#app/platform';
import { type RecurrenceInput, seriesPastCalendar, validateRecurrence } from '../domain/series-dates.js';
import { toFieldErrors } from '../domain/refusals.js';
import { RotaIds } from '../next-id.js';
import { gateOf, streamOf } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { evolve as evolveSeries, type SeriesState } from './repeating-shift.js';
import { RepeatingShiftQueries } from './repeating-shift.queries.js';
import { type BookingFacts, BookingFactsReader } from './booking-facts.js';
import { evolve as evolveShift, type ShiftState } from './shift.js';
import {
  type ChangePlan,
  decideChangeShift,
  type EditMode,
  laterOccurrences,
  occurrenceAt,
  planChange,
  timesOfDayOf,
} from './shift-changes.js';
import { assertListed, shiftToChange } from './shift-access.js';
import { datesTouched, parseShiftTimes } from './shift-times.js';
import { type ShiftRow, ShiftQueries } from './shift.queries.js';

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
    await this.store.write(async () => {
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
      const now = Date.now();
      const pick = (rows: ShiftRow[]) => (seriesId === null ? [] : laterOccurrences(rows, row, seriesId, now));
      const later = seriesId === null ? [] : pick(await this.shifts.ofSeries(caller, seriesId, row.date));
      // Only a retime books new times on the later occurrences' days; their gates are taken from the rows (a row moved since makes the append lose).
      const tod = timesOfDayOf(times);
      const moves = plan.kind === 'retime' ? later.flatMap((o) => occurrenceAt(o.date, tod, zone) ?? []) : [];
      const spans = [times, ...moves];
      const hasNew = plan.kind === 'split' || plan.kind === 'start';
      return {
        gates: {
          advance: spans.flatMap((t) => [
            gateOf.rotaDay(row.rotaId, t.date),
            ...datesTouched(t, zone).map((d) => gateOf.userDay(row.userId, d)),
          ]),
          hold: [gateOf.rotaCalendar(row.rotaId)],
        },
        facts: async (db: WriteQuery) => {
          const facts = await this.facts.read(
            db,
            caller,
            {
              rotaIds: [row.rotaId],
              users: { ids: [row.userId], spans },
              days: [{ rotaId: row.rotaId, date: times.date }],
            },
            zone,
          );
          if (seriesId !== null) await assertListed(this.shifts, db, caller, seriesId, row.date, later, pick);
          return facts;
        },
        streams: {
          shift: { streamId: streamOf.shift(row.id), evolve: evolveShift },
          ...(seriesId !== null && { series: { streamId: streamOf.series(seriesId), evolve: evolveSeries } }),
          ...(hasNew && { newSeries: { streamId: streamOf.series(newSeriesId!), expect: 'no_stream' as const } }),
          ...Object.fromEntries(
            later.map((o) => [`later ${o.id}`, { streamId: streamOf.shift(o.id), evolve: evolveShift }]),
          ),
        } as Record<string, StreamRead<ShiftState | SeriesState>>,
        decide: (states: Record<string, ShiftState | SeriesState | null>, facts: BookingFacts) => {
          const rota = facts.rotas.get(row.rotaId);
          if (!rota) throw new NotFoundError('Shift');
          return decideChangeShift(
            {
              shift: states.shift as ShiftState | null,
              series: (states.series ?? null) as SeriesState | null,
              later: later.map((o) => states[`later ${o.id}`] as ShiftState | null),
            },
            request,
            plan as ChangePlan,
            {
              zone,
              today,
              now,
              rota,
              reach,
              newSeriesId,
              booker: bookers.get(row.userId),
              userShifts: facts.userShifts,
              rotaDayShifts: facts.rotaDays.get(`${row.rotaId} ${times.date}`) ?? [],
            },
          );
        },
        metadata: metadataOf(caller),
      };
    });
  }
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

import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf, OrganisationFactsReader } from '#app/identity';
import { type FieldErrors, ValidationError } from '#app/platform';
import { type AttendanceStatus, streamOf } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { decideRecordAttendance } from './attendance.js';
import { BookingFactsReader } from './booking-facts.js';
import { shiftWithRota } from './shift-access.js';
import { evolve } from './shift.js';
import { ShiftQueries } from './shift.queries.js';
import { parseShiftInstant } from './shift-times.js';

/** The attendance body, its shape checked by the DTO. */
export interface AttendanceRequest {
  readonly status: AttendanceStatus | null;
  /** As sent; null or undefined: the shift's own. */
  readonly start_datetime?: string | null;
  readonly end_datetime?: string | null;
  readonly note: string | null;
}

export class RecordAttendanceCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly shiftId: number,
    readonly request: AttendanceRequest,
  ) {
    super();
  }
}

/**
 * `PUT /api/rota/shifts/{id}/attendance` (decideRecordAttendance, docs/rota-domain.md#attendance).
 * The worked times are parsed first, as the rest of the body's shape (422), with `attended` only
 * (the other statuses take no times); then the shift (404 / 403) and its rota; then one append on
 * the shift's stream. No gate: attendance takes no place, and a concurrent change of the shift makes
 * one of the two appends lose (409).
 */
@CommandHandler(RecordAttendanceCommand)
export class RecordAttendanceHandler implements ICommandHandler<RecordAttendanceCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly policy: RotasPolicy,
    private readonly facts: BookingFactsReader,
    private readonly shifts: ShiftQueries,
    private readonly organisations: OrganisationFactsReader,
  ) {}

  async execute({ caller, shiftId, request }: RecordAttendanceCommand): Promise<void> {
    const [{ timezone: zone }, reach] = await Promise.all([this.organisations.of(caller), this.policy.reach(caller)]);
    const times = request.status === 'attended' ? workedTimesOf(request, zone) : {};
    const { rota } = await shiftWithRota(this.shifts, this.facts, caller, reach, shiftId, zone);
    await this.store.handle(
      streamOf.shift(shiftId),
      evolve,
      (state) =>
        decideRecordAttendance(
          state,
          { reach, status: request.status, ...times, note: request.note },
          { rota, zone, now: Date.now() },
        ),
      { metadata: metadataOf(caller) },
    );
  }
}

/** The worked times sent, as instants (shapes as for shifts: docs/rota-domain.md#times-in-requests); both problems at once. */
function workedTimesOf(request: AttendanceRequest, zone: string): { start?: Date; end?: Date } {
  const errors: FieldErrors = {};
  const parse = (field: 'start_datetime' | 'end_datetime'): Date | undefined => {
    const text = request[field];
    if (text === undefined || text === null) return undefined;
    const instant = parseShiftInstant(text, zone, field);
    if (typeof instant !== 'string') return instant;
    errors[field] = [instant];
    return undefined;
  };
  const [start, end] = [parse('start_datetime'), parse('end_datetime')];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { ...(start && { start }), ...(end && { end }) };
}

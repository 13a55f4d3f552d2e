import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf, OrganisationFactsReader } from '#app/identity';
import { streamOf } from '../rotas.events.js';
import { RotasPolicy } from '../rotas.policy.js';
import { decideRecordAttendance } from './attendance.js';
import { BookingFactsReader } from './booking-facts.js';
import { type AttendanceRequest, workedTimesOf } from './record-attendance.write.js';
import { shiftWithRota } from './shift-access.js';
import { evolve } from './shift.js';
import { ShiftQueries } from './shift.queries.js';

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
 * The worked times are parsed first, as the rest of the body's shape (422: workedTimesOf); then the
 * shift (404 / 403) and its rota; then one append on the shift's stream. No gate: attendance takes
 * no place, and a concurrent change of the shift makes one of the two appends lose (409).
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
    const times = workedTimesOf(request, zone);
    const { rota } = await shiftWithRota(this.shifts, this.facts, caller, reach, shiftId, zone);
    await this.store.handle(
      streamOf.shift(shiftId),
      evolve,
      (state, now) =>
        decideRecordAttendance(
          state,
          { reach, status: request.status, ...times, note: request.note },
          { rota, zone, now },
        ),
      { metadata: metadataOf(caller) },
    );
  }
}

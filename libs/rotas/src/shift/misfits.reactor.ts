import { Injectable } from '@nestjs/common';
import {
  AsReactor,
  causedJob,
  type CausedJob,
  defineReactor,
  type ReactorJob,
  type StoredEvent,
} from '#app/event-store';
import type { RotaCalendarChange, RotaEvent } from '../rotas.events.js';
import type { MisfitJobData } from './cancel-misfits.command.js';
import type { CalendarChangeType } from './misfits.js';

export const ROTA_MISFITS = 'rotas-misfits';

/** The job: the change's rota, first affected date, type and place in the log (not its whole calendar: the processor reads the stream). */
export type MisfitJob = CausedJob<MisfitJobData>;

type CalendarChange = Extract<RotaEvent, { type: CalendarChangeType }>;

const misfitJob = (event: StoredEvent<CalendarChangeType, RotaCalendarChange>): ReactorJob =>
  causedJob('cancel-misfits', event, {
    id: event.data.id,
    organisationId: event.data.organisationId,
    effectiveFrom: event.data.effectiveFrom,
    type: event.type,
    position: event.position,
    streamVersion: event.streamVersion,
  } satisfies MisfitJobData);

/**
 * A rota change that can leave booked shifts outside the rota (docs/rota-domain.md#shifts-that-no-longer-fit)
 * hands their cancellation to the worker: one job per change, its id the event's id.
 */
@AsReactor()
@Injectable()
export class MisfitsReactor extends defineReactor<CalendarChange>({
  name: 'rotas.misfits',
  queue: ROTA_MISFITS,
  on: {
    'rotas.RotaTimeslotsChanged': misfitJob,
    'rotas.RotaPatternReplaced': misfitJob,
    'rotas.RotaEnded': misfitJob,
    'rotas.RotaClosed': misfitJob,
    'rotas.RotaArchived': misfitJob,
  },
}) {}

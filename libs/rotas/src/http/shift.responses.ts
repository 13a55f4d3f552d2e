import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { UserBaseDto } from '#app/identity';
import type { AttendanceView, RecurrencePatternView, ShiftView, StandInView } from '../booking/shift.queries.js';
import { STAND_IN_NOTE_MAX } from '../booking/stand-in.js';
import { TeamDto } from './rota.responses.js';

const ID = { type: 'integer', format: 'int64', minimum: 1 } as const;
const WALL = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}$',
  example: '2027-03-01 09:00',
  description: 'Wall clock in the rota’s zone',
} as const;
const HHMM = {
  type: 'string',
  pattern: '^\\d{2}:\\d{2}$',
  example: '09:00',
  description: 'Wall clock in the rota’s zone',
} as const;
const FLAG = { type: 'integer', enum: [0, 1] } as const;

/** The interface's recurrence_pattern of a shift in a series (docs/rota-domain.md#the-recurrence-pattern). */
@ApiSchema({ name: 'RecurrencePattern', description: 'The series a shift belongs to' })
export class RecurrencePatternDto implements RecurrencePatternView {
  @ApiProperty({ ...ID, description: 'The repeating shift id' }) id!: number;
  @ApiProperty({ type: 'string', enum: ['week'] }) recurrence_period!: 'week';
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 52, description: 'Every n weeks' })
  recurrence_frequency!: number;
  @ApiProperty({
    type: 'string',
    format: 'date',
    nullable: true,
    description: 'The last date of the series (inclusive), null when open-ended',
  })
  end_date!: string | null;
  @ApiProperty(FLAG) mon!: 0 | 1;
  @ApiProperty(FLAG) tue!: 0 | 1;
  @ApiProperty(FLAG) wed!: 0 | 1;
  @ApiProperty(FLAG) thu!: 0 | 1;
  @ApiProperty(FLAG) fri!: 0 | 1;
  @ApiProperty(FLAG) sat!: 0 | 1;
  @ApiProperty(FLAG) sun!: 0 | 1;
}

/** A shift's recorded attendance (docs/rota-domain.md#attendance). */
@ApiSchema({ name: 'ShiftAttendance', description: 'What was recorded of a shift’s attendance' })
export class AttendanceDto implements AttendanceView {
  @ApiProperty({ type: 'string', enum: ['attended', 'no_show'] }) status!: 'attended' | 'no_show';
  @ApiProperty({
    ...WALL,
    description: 'When the work started (the shift’s own start for no_show); it does not move with the shift',
  })
  start_datetime!: string;
  @ApiProperty({
    ...WALL,
    description: 'When the work ended (the shift’s own end for no_show); it does not move with the shift',
  })
  end_datetime!: string;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'Whole real minutes between the worked times for attended (a clock change counts as it really lasted), 0 for no_show',
  })
  minutes!: number;
  @ApiProperty({ type: 'string', nullable: true, maxLength: 1000 }) note!: string | null;
  @ApiProperty({ type: UserBaseDto, description: 'Who recorded it' }) recorded_by!: UserBaseDto;
  @ApiProperty({ type: 'string', format: 'date-time', description: 'When it was recorded (ISO 8601)' })
  recorded_at!: string;
}

/** An open stand-in request (docs/rota-domain.md#stand-ins-and-take-overs). */
@ApiSchema({ name: 'StandInRequest', description: 'The shift is looking for a stand-in' })
export class StandInDto implements StandInView {
  @ApiProperty({ type: 'string', format: 'date-time', description: 'When it was first asked for (ISO 8601)' })
  requested_at!: string;
  @ApiProperty({ type: UserBaseDto, description: 'Who asked (the volunteer or a manager)' })
  requested_by!: UserBaseDto;
  @ApiProperty({ type: 'string', nullable: true, maxLength: STAND_IN_NOTE_MAX, description: 'Null when absent' })
  note!: string | null;
}

/** The interface's Shift record plus `rota_id` (docs/rota-domain.md#the-shift-record-and-list). */
@ApiSchema({
  name: 'Shift',
  description: 'A booked shift; times are wall clock in the rota’s (the organisation’s) zone',
})
export class ShiftDto implements ShiftView {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: UserBaseDto }) user!: UserBaseDto;
  @ApiProperty({ type: 'string', format: 'date', description: 'The local date the shift starts on' }) date!: string;
  @ApiProperty(HHMM) start_time!: string;
  @ApiProperty(WALL) start_datetime!: string;
  @ApiProperty(HHMM) end_time!: string;
  @ApiProperty({
    ...WALL,
    description: 'Wall clock in the rota’s zone; a later date than start_datetime for an overnight shift',
  })
  end_datetime!: string;
  @ApiProperty({ type: TeamDto, description: 'The rota’s team' }) team!: TeamDto;
  @ApiProperty({ type: RecurrencePatternDto, nullable: true, description: 'The series, null for a shift of no series' })
  recurrence_pattern!: RecurrencePatternDto | null;
  @ApiProperty({ ...ID, description: 'The rota (an addition to the spec’s record)' }) rota_id!: number;
  @ApiProperty({
    type: AttendanceDto,
    nullable: true,
    description: 'What was recorded of the shift’s attendance; null until recorded (an addition to the spec’s record)',
  })
  attendance!: AttendanceDto | null;
  @ApiProperty({
    type: StandInDto,
    nullable: true,
    description:
      'An open stand-in request; null when the shift is not looking for a stand-in (an addition to the spec’s record)',
  })
  stand_in!: StandInDto | null;
}

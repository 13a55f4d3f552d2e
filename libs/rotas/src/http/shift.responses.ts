import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { UserBaseDto } from '#app/identity';
import type { RecurrencePatternView, ShiftView } from '../booking/shift.queries.js';
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
}

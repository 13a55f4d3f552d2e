import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { RepeatingShiftView } from '../booking/repeating-shift.queries.js';

const ID = { type: 'integer', format: 'int64', minimum: 1 } as const;
const FLAG = { type: 'integer', enum: [0, 1] } as const;
const DATETIME = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
  example: '2027-03-01 09:00:00',
} as const;

/** An occurrence the worker did not book, and why. */
@ApiSchema({ name: 'SkippedOccurrence' })
export class SkippedOccurrenceDto {
  @ApiProperty({ type: 'string', format: 'date', description: 'The occurrence’s local date' }) date!: string;
  @ApiProperty({
    type: 'string',
    description:
      'Why it could not be booked (closed or inactive day, no fitting timeslot, an overlap, the user on hold…)',
  })
  reason!: string;
}

/**
 * `GET /api/rota/repeating-shifts/{id}` (an addition): the interface's Repeating shift object, and how far
 * generation went (docs/rota-domain.md#reading-a-series).
 */
@ApiSchema({
  name: 'RepeatingShift',
  description:
    'A series of shifts (the spec’s Repeating shift object) and its generation; times are wall clock in the rota’s zone',
})
export class RepeatingShiftDto implements RepeatingShiftView {
  @ApiProperty({ ...ID, description: 'The repeating shift id' }) id!: number;
  @ApiProperty({ ...ID, description: 'The user it books' }) user_id!: number;
  @ApiProperty(ID) rota_id!: number;
  @ApiProperty({ ...ID, description: 'The rota’s team id' }) hierarchy_id!: number;
  @ApiProperty({ type: 'string', enum: ['week'] }) period!: 'week';
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: 52,
    description: 'Every n weeks, counted from the Monday of the first shift’s week',
  })
  frequency!: number;
  @ApiProperty({ ...DATETIME, description: 'The first shift’s local start' }) start_date!: string;
  @ApiProperty({
    ...DATETIME,
    example: '2027-06-30 23:59:59',
    nullable: true,
    description:
      'The end of the series’ last local day (inclusive), null while open-ended. Set when the series is ' +
      'ended, split or cancelled (a cancelled series ends on the day it was cancelled).',
  })
  end_date!: string | null;
  @ApiProperty({ ...FLAG, description: 'With no weekday chosen, the first shift’s weekday is 1' }) mon!: 0 | 1;
  @ApiProperty(FLAG) tue!: 0 | 1;
  @ApiProperty(FLAG) wed!: 0 | 1;
  @ApiProperty(FLAG) thu!: 0 | 1;
  @ApiProperty(FLAG) fri!: 0 | 1;
  @ApiProperty(FLAG) sat!: 0 | 1;
  @ApiProperty(FLAG) sun!: 0 | 1;
  @ApiProperty({
    type: 'string',
    format: 'date',
    description: 'The last date the worker has considered (the first shift’s date until it runs)',
  })
  generated_until!: string;
  @ApiProperty({ type: [SkippedOccurrenceDto], description: 'Occurrences not booked, by date' })
  skipped!: SkippedOccurrenceDto[];
}

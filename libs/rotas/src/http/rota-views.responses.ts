import { ApiProperty, ApiPropertyOptional, ApiSchema, OmitType } from '@nestjs/swagger';
import { UserBaseDto } from '#app/identity';
import { STATUS } from '../domain/coverage.js';
import type { RepeatingShiftObject } from '../booking/repeating-shift.queries.js';
import type {
  DayPatternEntry,
  DayShift,
  DayView,
  DayViewRota,
  OwnDayShift,
  ShiftPermissions,
} from '../views/day-view.js';
import type { DateEntry, PeriodView, RotaHourEntry, RotaPatternEntry } from '../views/period-view.js';
import { RepeatingShiftDto } from './repeating-shift.responses.js';
import { RotaPermissionsDto, TeamDto } from './rota.responses.js';
import { PatternTimeslotDto } from './shift-pattern.responses.js';
import { StandInDto } from './shift.responses.js';

const ID = { type: 'integer', format: 'int64', minimum: 1 } as const;
const DATE = { type: 'string', format: 'date', example: '2027-03-01' } as const;
const STAMP = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
  example: '2027-03-01 09:00:00',
} as const;
const WALL = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}$',
  example: '2027-03-01 09:00',
  description: 'Wall clock in the rota’s zone',
} as const;
const UTC_CLOCK = { type: 'string', pattern: '^\\d{2}:\\d{2}$', example: '08:00', nullable: true } as const;
const STATUS_NUMBER = {
  type: 'integer',
  enum: [-2, -1, 0, 1, 2],
  description:
    '−2 below-minimum (count < min), −1 below-ideal (< ideal), 0 ideal (< max), 1 full (= max), 2 over-maximum (> max)',
} as const;
const STATUS_TEXT = { type: 'string', enum: Object.values(STATUS) } as const;
const SAME_DAY = { type: 'boolean', description: 'The rota’s flag (binds only while self_manage is true)' } as const;

/** The interface's Hour (timeslot status) entry (docs/rota-domain.md#hour-entries). */
@ApiSchema({
  name: 'HourEntry',
  description:
    'One hour of a timeslot: cut at whole wall-clock hours counted from the timeslot’s start, the last ending at its end; on a clock-change day the ' +
    'entries cover the real time with no gap or overlap (a cut the clocks skip moves forward, an ambiguous one is the earlier instant)',
})
export class HourEntryDto {
  @ApiProperty({ ...STAMP, description: 'Local start (YYYY-MM-DD HH:MM:SS)' }) start_time!: string;
  @ApiProperty({ ...STAMP, description: 'Local end (YYYY-MM-DD HH:MM:SS)' }) end_time!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'max(0, min − shift_count)' }) required!: number;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'The fewest volunteers on duty at any moment of the entry (cancelled shifts never count)',
  })
  shift_count!: number;
  @ApiProperty(STATUS_NUMBER) status!: -2 | -1 | 0 | 1 | 2;
  @ApiProperty(STATUS_TEXT) status_text!: (typeof STATUS)[keyof typeof STATUS];
  @ApiProperty({ type: 'integer', minimum: 0 }) min!: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) ideal!: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) max!: number;
}

/** A Date entry's hour (detailed period view): whose rota it is. */
@ApiSchema({ name: 'RotaHourEntry', description: 'An Hour entry of one rota on the date (detailed period view)' })
export class RotaHourEntryDto extends HourEntryDto implements RotaHourEntry {
  @ApiProperty({ ...ID, description: 'The rota the hour is of' }) rota_id!: number;
}

/** A Date entry's timeslot (detailed period view): whose rota it is. */
@ApiSchema({
  name: 'RotaPatternTimeslot',
  description: 'A Pattern timeslot entry of one rota on the date (detailed period view)',
})
export class RotaPatternTimeslotDto extends PatternTimeslotDto implements RotaPatternEntry {
  @ApiProperty({ ...ID, description: 'The rota the timeslot is of' }) rota_id!: number;
}

/**
 * The day view's Pattern timeslot entry, with its status as text (the interface declares pattern_status a
 * string: docs/rota-domain.md#statuses).
 */
@ApiSchema({
  name: 'DayPatternTimeslot',
  description: 'A timeslot of the rota on the day, with the lowest status of its hours',
})
export class DayPatternTimeslotDto extends PatternTimeslotDto implements DayPatternEntry {
  @ApiProperty({
    ...STATUS_TEXT,
    description: 'The lowest status of the timeslot’s hours, as text (ideal when it has none)',
  })
  pattern_status!: (typeof STATUS)[keyof typeof STATUS];
}

/**
 * The interface's Repeating shift object (day view): the repeating shift route's record without its generation
 * fields (docs/rota-domain.md#record-shapes).
 */
@ApiSchema({
  name: 'DayViewRepeatingShift',
  description:
    'The series a shift belongs to (the spec’s Repeating shift object, day view); times are wall clock in the rota’s zone',
})
export class DayViewRepeatingShiftDto
  extends OmitType(RepeatingShiftDto, ['generated_until', 'skipped'] as const)
  implements RepeatingShiftObject {}

/** What the caller may do to one shift now. */
@ApiSchema({
  name: 'DayViewShiftPermissions',
  description:
    'Each true when the caller may do it now, rules 7 and 8 included: a manager (manage-rotas or add-user-shifts over the rota’s team) for every ' +
    'shift of the rota; anyone else only their own shift on a self-managed rota, judged as the update and cancel routes would (not started; on today’s ' +
    'date only with allow_same_day_edit / allow_same_day_cancel; an overnight shift never on its start date; an edit also through rules 1–7 at its ' +
    'current times)',
})
export class ShiftPermissionsDto implements ShiftPermissions {
  @ApiProperty({ type: 'boolean', description: 'PUT /api/rota/shifts/{id} with edit_mode single' })
  can_edit_shift!: boolean;
  @ApiProperty({ type: 'boolean', description: 'DELETE /api/rota/shifts/{id}' }) can_cancel_shift!: boolean;
  @ApiProperty({
    type: 'boolean',
    description: 'As can_edit_shift, for a shift of a series (edit_mode recurring); false for a shift of no series',
  })
  can_edit_repeating_shift!: boolean;
}

/** The interface's Day-view shift as own_shifts lists it, without permissions (docs/rota-domain.md#day-view). */
@ApiSchema({
  name: 'DayViewOwnShift',
  description: 'One of the caller’s shifts on the rota that day (a Day-view shift without permissions)',
})
export class OwnDayShiftDto implements OwnDayShift {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: UserBaseDto }) user!: UserBaseDto;
  @ApiProperty({ ...DATE, description: 'The local date the shift starts on' }) date!: string;
  @ApiProperty({ type: 'boolean', description: 'It ends on a later date than it starts' }) overnight_shift!: boolean;
  @ApiProperty({ ...WALL, description: 'Local start (YYYY-MM-DD HH:MM)' }) start_time!: string;
  @ApiProperty({ ...WALL, description: 'Local end (YYYY-MM-DD HH:MM)' }) end_time!: string;
  @ApiProperty({ type: 'string', example: 'Europe/London', description: 'The rota’s (the organisation’s) zone' })
  timezone!: string;
  @ApiProperty({ type: DayViewRepeatingShiftDto, nullable: true, description: 'null for a shift of no series' })
  repeating_shift!: DayViewRepeatingShiftDto | null;
  @ApiProperty({
    type: StandInDto,
    nullable: true,
    description: 'An open stand-in request, as the Shift record shows it; null when none (an addition)',
  })
  stand_in!: StandInDto | null;
}

/** The interface's Day-view shift as shifts lists it (docs/rota-domain.md#day-view). */
@ApiSchema({
  name: 'DayViewShift',
  description: 'A booked shift on the rota that day, with what the caller may do to it',
})
export class DayShiftDto extends OwnDayShiftDto implements DayShift {
  @ApiProperty({ type: ShiftPermissionsDto }) permissions!: ShiftPermissionsDto;
}

/** The interface's Day-view rota, plus status (docs/rota-domain.md#day-view). */
@ApiSchema({ name: 'DayViewRota', description: 'One rota on one date' })
export class DayViewRotaDto implements DayViewRota {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string' }) name!: string;
  @ApiProperty({ type: TeamDto }) team!: TeamDto;
  @ApiProperty({ type: 'boolean', description: 'A shift must cover its whole timeslot' })
  require_full_timeslot!: boolean;
  @ApiProperty({
    type: 'boolean',
    description: 'Closed that day (by the close action, or no timeslot starts that day): no hours, status 0',
  })
  closed!: boolean;
  @ApiProperty({ type: 'boolean', description: 'status is −2' }) below_minimum!: boolean;
  @ApiProperty({
    ...STATUS_NUMBER,
    description: 'Addition: the lowest status of its hours (0 when closed or without hours)',
  })
  status!: -2 | -1 | 0 | 1 | 2;
  @ApiProperty({
    type: 'boolean',
    description: 'The caller has a shift on the rota that day; false unless user_flags=true',
  })
  own_shift!: boolean;
  @ApiProperty({
    type: [OwnDayShiftDto],
    description: 'The caller’s shifts on the rota that day, whatever user_flags says; by start, then id',
  })
  own_shifts!: OwnDayShiftDto[];
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Distinct users with shifts on the rota that day' })
  total_users!: number;
  @ApiProperty({ type: [DayPatternTimeslotDto], description: 'The timeslots starting that day, by start' })
  shift_patterns!: DayPatternTimeslotDto[];
  @ApiProperty({ type: [HourEntryDto], description: 'The hours of those timeslots, by start' }) hours!: HourEntryDto[];
  @ApiProperty({
    type: [DayShiftDto],
    description: 'The booked shifts starting on the rota that day, by start, then id',
  })
  shifts!: DayShiftDto[];
  @ApiProperty({ type: 'string', pattern: '^#[0-9a-fA-F]{6}$', example: '#1f77b4' }) colour!: string;
  @ApiProperty({ type: 'boolean', description: 'Volunteers may book their own shifts' }) self_manage!: boolean;
  @ApiProperty(SAME_DAY) allow_same_day_add!: boolean;
  @ApiProperty(SAME_DAY) allow_same_day_cancel!: boolean;
  @ApiProperty(SAME_DAY) allow_same_day_edit!: boolean;
  @ApiProperty({ type: RotaPermissionsDto }) permissions!: RotaPermissionsDto;
}

/** The interface's Date entry of the period view (docs/rota-domain.md#period-view). */
@ApiSchema({ name: 'DateEntry', description: 'One date of the period across the returned rotas' })
export class DateEntryDto implements DateEntry {
  @ApiProperty(DATE) date!: string;
  @ApiProperty({ type: 'boolean', description: 'status is −2' }) below_minimum!: boolean;
  @ApiProperty({
    ...STATUS_NUMBER,
    description: 'The lowest status of the open rota-days that date (0 when none is open)',
  })
  status!: -2 | -1 | 0 | 1 | 2;
  @ApiProperty({
    type: 'boolean',
    description: 'Every returned rota is closed or inactive that date (true when no rota is returned)',
  })
  closed!: boolean;
  @ApiProperty({
    type: 'boolean',
    description: 'The caller has a shift that date on a returned rota; false unless user_flags=true',
  })
  own_shift!: boolean;
  @ApiProperty({
    type: [RotaHourEntryDto],
    description:
      'basic: empty. detailed: every rota’s hours that date, rota by rota (in the answer’s rota order), each by start',
  })
  hours!: RotaHourEntryDto[];
  @ApiProperty({
    type: [RotaPatternTimeslotDto],
    description: 'basic: empty. detailed: every rota’s timeslots starting that date, rota by rota',
  })
  shift_patterns!: RotaPatternTimeslotDto[];
  @ApiPropertyOptional({
    type: [DayViewRotaDto],
    description:
      'detailed only: the Day-view rota records of the returned rotas active that date, in the answer’s rota order',
  })
  rotas?: DayViewRotaDto[];
}

/** `GET /api/rota/period`. */
@ApiSchema({ name: 'RotaPeriodView', description: 'The rotas’ coverage over a range of dates' })
export class PeriodViewDto implements PeriodView {
  @ApiProperty(DATE) start_date!: string;
  @ApiProperty(DATE) end_date!: string;
  @ApiProperty({
    type: 'boolean',
    description:
      'false while a returned rota has a repeating shift whose occurrences the worker is still booking: repeat the request later',
  })
  data_ready!: boolean;
  @ApiProperty({
    type: 'boolean',
    description:
      'More than max_rotas rotas matched (the first max_rotas are returned), or a detailed answer had more ' +
      'than 10,000 shifts (the shift arrays are empty); repeat with fewer rota or team ids',
  })
  truncated!: boolean;
  @ApiProperty({ type: 'integer', example: 25, description: 'The most rotas an answer returns' }) max_rotas!: number;
  @ApiProperty({
    type: RotaPermissionsDto,
    description: 'Over the returned rotas: each flag true when true for any of them; allowed_roles their union',
  })
  permissions!: RotaPermissionsDto;
  @ApiProperty({ type: [DateEntryDto], description: 'One entry a date, start_date to end_date' })
  dates!: DateEntryDto[];
}

/** `GET /api/rota/day/{date}`. */
@ApiSchema({ name: 'RotaDayView', description: 'The rotas of one date, with their hours and shifts' })
export class DayViewDto implements DayView {
  @ApiProperty({
    ...UTC_CLOCK,
    description: 'The earliest timeslot start of the returned rotas that day, HH:MM in UTC; null when none',
  })
  start_time!: string | null;
  @ApiProperty({
    ...UTC_CLOCK,
    description: 'The latest timeslot end of the returned rotas that day, HH:MM in UTC; null when none',
  })
  end_time!: string | null;
  @ApiProperty({ type: 'boolean', description: 'More than max_rotas rotas matched: the first max_rotas are returned' })
  truncated!: boolean;
  @ApiProperty({ type: 'integer', example: 25 }) max_rotas!: number;
  @ApiProperty({ type: [DayViewRotaDto], description: 'By team name, rota name (case-insensitive), then id' })
  rotas!: DayViewRotaDto[];
}

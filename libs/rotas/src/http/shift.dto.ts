import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  calendarDateMessage,
  type FieldErrors,
  IdRef,
  isCalendarDate,
  IsOptionalNotNull,
  IsReference,
  type PageRequest,
  parseBooleanQuery,
  parseIdList,
  parseListQuery,
  type RawQuery,
  ValidationError,
} from '#app/platform';
import { addDays, dayNumber } from '../domain/calendar-dates.js';
import { ATTENDANCE_NOTE_MAX } from '../booking/attendance.js';
import { STAND_IN_NOTE_MAX } from '../booking/stand-in.js';

// Types and presence here; the times (formats, the spring gap, end after start), the recurrence
// rules and the booking rules are the command's and the domain's (shift-times.ts, series-dates.ts,
// booking-rules.ts), keyed like the body (`shifts.3.start_datetime`).

const DATETIME = {
  type: 'string',
  example: '2027-03-01 09:00',
  description:
    '`YYYY-MM-DD HH:MM`, a wall-clock time in the organisation’s zone, or ISO 8601 with an offset or `Z` ' +
    '(converted into the zone). Whole minutes; a time the clocks skip is a 422.',
} as const;

export const WEEKDAY_FLAGS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** The OpenAPI schema of `recurrence_pattern` (its rules: domain/series-dates.ts validateRecurrence). */
export const RECURRENCE_SCHEMA = {
  type: 'object',
  nullable: true,
  description:
    'A repeating shift: every `recurrence_frequency` weeks (counted from the Monday of the first shift’s ' +
    'week) on the weekdays set to 1 (none set: the first shift’s weekday), until `end_date` (inclusive) ' +
    'or open-ended. The posted shift is the first occurrence and must fall on a selected weekday; the ' +
    'worker books the others up to six calendar months ahead, skipping (and recording) those that cannot ' +
    'be booked.',
  properties: {
    recurrence_period: { type: 'string', enum: ['week'] },
    recurrence_frequency: { type: 'integer', minimum: 1, maximum: 52 },
    ...Object.fromEntries(WEEKDAY_FLAGS.map((d) => [d, { type: 'integer', enum: [0, 1] }])),
    end_date: { type: 'string', format: 'date', nullable: true },
  },
  required: ['recurrence_period', 'recurrence_frequency'],
  additionalProperties: false,
} as const;

/** One shift to book: the single create body, and each item of `shifts`. */
@ApiSchema({ name: 'CreateShiftItem' })
export class CreateShiftItem {
  @ApiProperty(DATETIME)
  @IsDefined()
  @IsString()
  start_datetime!: string;

  @ApiProperty(DATETIME)
  @IsDefined()
  @IsString()
  end_datetime!: string;

  @ApiProperty({ type: IdRef, description: 'The user the shift is for' })
  @IsDefined()
  @IsReference()
  user!: IdRef;

  @ApiProperty({ type: IdRef, description: 'The rota' })
  @IsDefined()
  @IsReference()
  rota!: IdRef;

  @ApiPropertyOptional({ ...RECURRENCE_SCHEMA, required: [...RECURRENCE_SCHEMA.required] })
  @IsOptional()
  @IsObject()
  recurrence_pattern?: Record<string, unknown> | null;

  @ApiPropertyOptional({
    type: 'boolean',
    description: 'A manager books a user on hold (rule 4); ignored for anyone else. Default: false.',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  ignore_on_hold?: boolean;

  @ApiPropertyOptional({
    type: 'boolean',
    description:
      'A manager books a user without an allowed role on a role-restricted rota (rule 5); ignored for anyone else. Default: false.',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  confirm_role_restriction?: boolean;
}

/**
 * `POST /api/rota/shifts`: one shift (the item's fields at the top level) or `{ shifts: [...] }`
 * (1–100, all or nothing). The item's fields are checked only when `shifts` is absent.
 */
export class CreateShiftsBody {
  @ValidateIf((o: CreateShiftsBody) => o.shifts === undefined)
  @IsDefined()
  @IsString()
  start_datetime?: string;

  @ValidateIf((o: CreateShiftsBody) => o.shifts === undefined)
  @IsDefined()
  @IsString()
  end_datetime?: string;

  @ValidateIf((o: CreateShiftsBody) => o.shifts === undefined)
  @IsDefined()
  @IsReference()
  user?: IdRef;

  @ValidateIf((o: CreateShiftsBody) => o.shifts === undefined)
  @IsDefined()
  @IsReference()
  rota?: IdRef;

  @IsOptional()
  @IsObject()
  recurrence_pattern?: Record<string, unknown> | null;

  @IsOptionalNotNull()
  @IsBoolean()
  ignore_on_hold?: boolean;

  @IsOptionalNotNull()
  @IsBoolean()
  confirm_role_restriction?: boolean;

  @IsOptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => CreateShiftItem)
  shifts?: CreateShiftItem[];
}

/** The OpenAPI body of the create route: one shift, or a bulk of them. */
export const CREATE_SHIFTS_BODY_SCHEMA = {
  oneOf: [
    { $ref: getSchemaPath(CreateShiftItem) },
    {
      type: 'object',
      required: ['shifts'],
      additionalProperties: false,
      properties: {
        shifts: { type: 'array', minItems: 1, maxItems: 100, items: { $ref: getSchemaPath(CreateShiftItem) } },
      },
    },
  ],
};

export class UpdateShiftBody {
  @ApiProperty(DATETIME)
  @IsDefined()
  @IsString()
  start_datetime!: string;

  @ApiProperty(DATETIME)
  @IsDefined()
  @IsString()
  end_datetime!: string;

  @ApiPropertyOptional({
    ...RECURRENCE_SCHEMA,
    required: [...RECURRENCE_SCHEMA.required],
    description:
      `${RECURRENCE_SCHEMA.description} With edit_mode recurring: a different pattern splits the series at ` +
      'this shift; null ends it at this shift. Not allowed (non-null) with edit_mode single.',
  })
  @IsOptional()
  @IsObject()
  recurrence_pattern?: Record<string, unknown> | null;

  @ApiProperty({
    enum: ['single', 'recurring'],
    description:
      '`single`: this shift only (it leaves its series); `recurring`: this and every later occurrence take the new times of day.',
  })
  @IsDefined()
  @IsIn(['single', 'recurring'])
  edit_mode!: 'single' | 'recurring';

  // An edit of times is a booking (docs/rota-domain.md#editing-a-shift): rules 4 and 5 bind it as they bind
  // a create, so the create body's two overrides are taken here too (an addition to the interface's update
  // body).
  @ApiPropertyOptional({
    type: 'boolean',
    description: 'A manager moves the shift of a user on hold (rule 4); ignored for anyone else. Default: false.',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  ignore_on_hold?: boolean;

  @ApiPropertyOptional({
    type: 'boolean',
    description:
      'A manager moves the shift of a user without an allowed role on a role-restricted rota (rule 5); ignored for anyone else. Default: false.',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  confirm_role_restriction?: boolean;
}

/**
 * `PUT /api/rota/shifts/{id}/attendance` (docs/rota-domain.md#attendance): `status` must be sent
 * (null clears); the worked times' formats are the command's (shift-times.ts), as for shifts.
 */
export class AttendanceBody {
  @ApiProperty({
    type: 'string',
    enum: ['attended', 'no_show', null],
    nullable: true,
    description: '`attended`, `no_show`, or null to clear what was recorded (required: absent is a 422)',
  })
  @ValidateIf((o: AttendanceBody) => o.status !== null)
  @IsDefined()
  @IsIn(['attended', 'no_show'])
  status!: 'attended' | 'no_show' | null;

  @ApiPropertyOptional({
    ...DATETIME,
    nullable: true,
    description: `With attended: when the work started (default the shift's start; within 12 hours of it). ${DATETIME.description} Ignored with no_show.`,
  })
  @IsOptional()
  @IsString()
  start_datetime?: string | null;

  @ApiPropertyOptional({
    ...DATETIME,
    nullable: true,
    description: `With attended: when the work ended (default the shift's end; within 12 hours of it, after the start). ${DATETIME.description} Ignored with no_show.`,
  })
  @IsOptional()
  @IsString()
  end_datetime?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: ATTENDANCE_NOTE_MAX,
    description: 'Null when absent',
  })
  @IsOptional()
  @IsString()
  @MaxLength(ATTENDANCE_NOTE_MAX)
  note?: string | null;
}

/**
 * `GET /api/rota/shifts`: page and per_page (alias limit), then teams, rotas and users, then
 * start_date and end_date (each a date). Their range depends on the organisation's today:
 * shiftListRange.
 */
export class ShiftListQuery {
  static readonly listParameters = ['teams', 'rotas', 'users'];
  readonly page!: PageRequest;
  readonly teams?: number[];
  readonly rotas?: number[];
  readonly users?: number[];
  readonly startDate?: string;
  readonly endDate?: string;
  /** `stand_in`: only shifts looking for a stand-in (true), or only those not (false). */
  readonly standIn?: boolean;

  static fromQuery(query: RawQuery): ShiftListQuery {
    const { page, perPage } = parseListQuery({ page: query.page, per_page: query.per_page, limit: query.limit });
    const [teams, rotas, users] = [
      parseIdList(query, 'teams'),
      parseIdList(query, 'rotas'),
      parseIdList(query, 'users'),
    ];
    const errors: FieldErrors = {};
    const read = (name: string) => {
      const value = query[name];
      if (value === undefined) return undefined;
      if (!isCalendarDate(value)) errors[name] = [calendarDateMessage(name)];
      return String(value);
    };
    const standIn = parseBooleanQuery(query, 'stand_in');
    const startDate = read('start_date');
    const endDate = read('end_date');
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return { page: { page, perPage }, teams, rotas, users, startDate, endDate, standIn };
  }
}

/**
 * `start_date` / `end_date` of the list: local dates, start_date today and end_date 31 days after
 * it unless given; the end not before the start, at most 365 days apart (a 422 naming end_date).
 */
export function shiftListRange(query: ShiftListQuery, today: string): { startDate: string; endDate: string } {
  const startDate = query.startDate ?? today;
  const endDate = query.endDate ?? addDays(startDate, 31);
  if (endDate < startDate) throw new ValidationError({ end_date: ['The end_date must not be before the start_date.'] });
  if (dayNumber(endDate) - dayNumber(startDate) > 365)
    throw new ValidationError({ end_date: ['The end_date must be at most 365 days after the start_date.'] });
  return { startDate, endDate };
}

/**
 * `PUT /api/rota/shifts/{id}/stand-in` (docs/rota-domain.md#stand-ins-and-take-overs): its length
 * is the decision's (stand-in.ts), judged after the 404, 403 and 409.
 */
export class StandInBody {
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: STAND_IN_NOTE_MAX,
    description: 'A note for whoever may take the shift over; null when absent. Asking again replaces it.',
  })
  @IsOptional()
  @IsString()
  note?: string | null;
}

/** `POST /api/rota/shifts/{id}/take-over`: who takes it (default the caller) and a manager's overrides. */
export class TakeOverBody {
  @ApiPropertyOptional({ type: IdRef, description: 'The taker (default the caller); someone else needs a manager' })
  @IsOptionalNotNull()
  @IsReference()
  user?: IdRef;

  @ApiPropertyOptional({ type: 'boolean', description: 'A manager books a taker on hold (rule 4)' })
  @IsOptionalNotNull()
  @IsBoolean()
  ignore_on_hold?: boolean;

  @ApiPropertyOptional({ type: 'boolean', description: 'A manager books a taker without an allowed role (rule 5)' })
  @IsOptionalNotNull()
  @IsBoolean()
  confirm_role_restriction?: boolean;
}

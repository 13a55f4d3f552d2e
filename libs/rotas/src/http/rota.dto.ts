import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  ValidateBy,
  type ValidationOptions,
} from 'class-validator';
import {
  calendarDateMessage,
  IdRef,
  IsCalendarDate,
  isCalendarDate,
  isIdRef,
  IsOptionalNotNull,
  IsPositiveId,
  isPositiveId,
  parseBooleanQuery,
  parseIdList,
  parseListQuery,
  type RawQuery,
  ValidationError,
} from '#app/platform';
import { WEEKDAYS } from '../domain/weekly-timeslots.js';
import type { Named } from '../rota/rota-decisions.js';
import {
  type DateRange,
  ROTA_INCLUDES,
  ROTA_SORTS,
  type RotaListFilters,
  type RotaListOrder,
} from '../rota/rota.queries.js';

// Types and presence here; the rules (name length, dates, pattern, teams, role profiles, contacts,
// the one-rota-per-team rule, timeslots) are the decisions' (rota/rota-decisions.ts), keyed like
// the body (`team.1.id`, `weekdays.monday.0.end_time`).

const ID = { type: 'integer', format: 'int64', minimum: 1 } as const;
const DATE = { type: 'string', format: 'date', example: '2027-01-04' } as const;
const COLOUR = /^#[0-9a-fA-F]{6}$/;
const COLOUR_SCHEMA = { type: 'string', pattern: COLOUR.source, example: '#1f77b4' } as const;

/** An id or `{ id }`, as `team`, `role_profiles` and `contacts` may take them (docs/http-conventions.md#ids). */
export type IdOrRef = number | IdRef;

/** The OpenAPI schema of a list of ids or `{ id }` objects. */
export const idOrRefList = (
  description: string,
  limits: { minItems?: number; maxItems: number },
  nullable = false,
) => ({
  type: 'array' as const,
  items: { oneOf: [ID, { $ref: getSchemaPath(IdRef) }] },
  ...limits,
  ...(nullable && { nullable: true }),
  description,
});

/** class-validator: each element an id or `{ id }` (presence and array-ness are the other decorators'). */
function IsIdsOrRefs(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isIdsOrRefs',
      validator: {
        validate: (value) => Array.isArray(value) && value.every((item) => isPositiveId(item) || isIdRef(item)),
        defaultMessage: (args) => `The ${args!.property} field must be a list of ids or { "id": … } objects.`,
      },
    },
    options,
  );
}

/** The list as the decisions take it: each id with its error key (`team.0.id` for `{ id }`, `team.0` for a bare id). */
export function named(list: readonly IdOrRef[], field: string): Named[];
export function named(list: readonly IdOrRef[] | null | undefined, field: string): Named[] | null | undefined;
export function named(list: readonly IdOrRef[] | null | undefined, field: string): Named[] | null | undefined {
  if (list === null || list === undefined) return list;
  return list.map((item, i) =>
    typeof item === 'number' ? { id: item, field: `${field}.${i}` } : { id: item.id, field: `${field}.${i}.id` },
  );
}

export const CREATE_LIMITS = { team: 100, role_profiles: 100, contacts: 50 } as const;

export class CreateRotaBody {
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 255, description: '1–255 characters, not blank' })
  @IsDefined()
  @IsString()
  name!: string;

  @ApiProperty({ ...DATE, description: 'The first day of the rota (any date: a rota may be recorded late)' })
  @IsDefined()
  @IsCalendarDate()
  start_date!: string;

  @ApiPropertyOptional({
    ...DATE,
    nullable: true,
    description: 'The last day (inclusive), not before start_date; null or absent: open-ended',
  })
  @IsOptional()
  @IsCalendarDate()
  end_date?: string | null;

  @ApiProperty({
    ...ID,
    description:
      'A shift pattern of the organisation, not archived; its timeslots are copied (with new ids) from start_date on',
  })
  @IsDefined()
  @IsPositiveId()
  pattern_id!: number;

  @ApiProperty(
    idOrRefList(
      'One rota per team, in this order (at most 100): teams of the organisation that the caller’s manage-rotas reaches, each once (else a 422 naming ' +
        'team.N.id, or team.N for a bare id)',
      { minItems: 1, maxItems: CREATE_LIMITS.team },
    ),
  )
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(CREATE_LIMITS.team)
  @IsIdsOrRefs()
  team!: IdOrRef[];

  @ApiPropertyOptional({
    type: 'boolean',
    nullable: true,
    description: 'Volunteers may book their own shifts; null or absent: false',
  })
  @IsOptional()
  @IsBoolean()
  self_manage?: boolean | null;

  @ApiPropertyOptional({ type: 'boolean', description: 'Binds only while self_manage is true. Default: true.' })
  @IsOptionalNotNull()
  @IsBoolean()
  allow_same_day_add?: boolean;

  @ApiPropertyOptional({ type: 'boolean', description: 'Binds only while self_manage is true. Default: false.' })
  @IsOptionalNotNull()
  @IsBoolean()
  allow_same_day_cancel?: boolean;

  @ApiPropertyOptional({ type: 'boolean', description: 'Binds only while self_manage is true. Default: false.' })
  @IsOptionalNotNull()
  @IsBoolean()
  allow_same_day_edit?: boolean;

  @ApiPropertyOptional({
    type: 'boolean',
    description: 'Only users holding a role of role_profiles may be booked; needs role_profiles. Default: false.',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  restricted_by_role?: boolean;

  @ApiPropertyOptional(
    idOrRefList(
      'Role profiles of the organisation (at most 100; a 422 naming role_profiles.N otherwise); required and non-empty when restricted_by_role',
      { maxItems: CREATE_LIMITS.role_profiles },
      true,
    ),
  )
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(CREATE_LIMITS.role_profiles)
  @IsIdsOrRefs()
  role_profiles?: IdOrRef[] | null;

  @ApiPropertyOptional(
    idOrRefList(
      'Users of the organisation (at most 50; a 422 naming contacts.N otherwise), made the contacts of every new rota',
      { maxItems: CREATE_LIMITS.contacts },
      true,
    ),
  )
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(CREATE_LIMITS.contacts)
  @IsIdsOrRefs()
  contacts?: IdOrRef[] | null;

  @ApiPropertyOptional({
    ...COLOUR_SCHEMA,
    nullable: true,
    description:
      'Addition: #rrggbb (stored in lower case); null or absent: a colour of a fixed palette, chosen by the rota id',
  })
  @IsOptional()
  @IsString()
  @Matches(COLOUR, { message: 'The colour field must be a colour such as #1a2b3c.' })
  colour?: string | null;

  @ApiPropertyOptional({
    type: 'boolean',
    description: 'Addition: a shift must cover its whole timeslot. Default: false.',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  require_full_timeslot?: boolean;
}

/** Absent or null leaves a field as it is. */
export class UpdateRotaBody {
  @ApiPropertyOptional({ type: 'string', nullable: true, minLength: 1, maxLength: 255 })
  @IsOptional()
  @IsString()
  name?: string | null;

  @ApiPropertyOptional({ ...COLOUR_SCHEMA, nullable: true, description: '#rrggbb (stored in lower case)' })
  @IsOptional()
  @IsString()
  @Matches(COLOUR, { message: 'The colour field must be a colour such as #1a2b3c.' })
  colour?: string | null;

  @ApiPropertyOptional({ type: 'boolean', nullable: true })
  @IsOptional()
  @IsBoolean()
  self_manage?: boolean | null;

  @ApiPropertyOptional({ type: 'boolean', nullable: true, description: 'Binds only while self_manage is true' })
  @IsOptional()
  @IsBoolean()
  allow_same_day_add?: boolean | null;

  @ApiPropertyOptional({ type: 'boolean', nullable: true, description: 'Binds only while self_manage is true' })
  @IsOptional()
  @IsBoolean()
  allow_same_day_cancel?: boolean | null;

  @ApiPropertyOptional({ type: 'boolean', nullable: true, description: 'Binds only while self_manage is true' })
  @IsOptional()
  @IsBoolean()
  allow_same_day_edit?: boolean | null;

  @ApiPropertyOptional({
    type: 'boolean',
    nullable: true,
    description: 'Addition: as in create; true needs role profiles (sent or kept)',
  })
  @IsOptional()
  @IsBoolean()
  restricted_by_role?: boolean | null;

  @ApiPropertyOptional({ type: 'boolean', nullable: true, description: 'Addition: as in create' })
  @IsOptional()
  @IsBoolean()
  require_full_timeslot?: boolean | null;

  @ApiPropertyOptional(
    idOrRefList(
      'Replaces the role profiles (at most 100; role profiles of the organisation, else a 422 naming role_profiles.N)',
      { maxItems: CREATE_LIMITS.role_profiles },
      true,
    ),
  )
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(CREATE_LIMITS.role_profiles)
  @IsIdsOrRefs()
  role_profiles?: IdOrRef[] | null;

  @ApiPropertyOptional(
    idOrRefList(
      'Replaces the contact set (at most 50 users of the organisation, else a 422 naming contacts.N): users left out stop being contacts, new ones become ' +
        'contacts, those staying keep their contact record. [] removes every contact.',
      { maxItems: CREATE_LIMITS.contacts },
      true,
    ),
  )
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(CREATE_LIMITS.contacts)
  @IsIdsOrRefs()
  contacts?: IdOrRef[] | null;
}

const TIME = { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9](:00)?$', example: '09:00' } as const;

/** A timeslot of one weekday, for the document (checkWeekdays checks it). */
@ApiSchema({
  name: 'WeekdayTimeslotBody',
  description: 'A timeslot starting on its weekday; an end_time not after start_time ends the next day',
})
export class WeekdayTimeslotBody {
  @ApiProperty({ ...TIME, description: 'HH:MM (HH:MM:00 is read too)' }) start_time!: string;
  @ApiProperty({ ...TIME, example: '17:00' }) end_time!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'min ≤ ideal ≤ max' }) min!: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) ideal!: number;
  @ApiProperty({ type: 'integer', minimum: 1 }) max!: number;
}

/** `weekdays`, for the document. */
@ApiSchema({
  name: 'WeekdaysBody',
  description:
    'Timeslots by weekday; a weekday omitted, null or empty has none (the rota is closed that weekday in the range)',
})
export class WeekdaysBody {
  [day: string]: WeekdayTimeslotBody[] | null | undefined;
}
for (const day of WEEKDAYS)
  ApiPropertyOptional({ type: [WeekdayTimeslotBody], nullable: true })(WeekdaysBody.prototype, day);

export class UpdateTimeslotsBody {
  @ApiProperty({ ...DATE, description: 'Today (in the organisation’s zone) or later' })
  @IsDefined()
  @IsCalendarDate()
  from!: string;

  @ApiPropertyOptional({
    ...DATE,
    nullable: true,
    description:
      'Not before from; null or absent: from `from` on, every later version replaced; given: what stood after `to` stands again',
  })
  @IsOptional()
  @IsCalendarDate()
  to?: string | null;

  @ApiProperty({
    type: WeekdaysBody,
    description: 'At most 200 timeslots in all; none may overlap another, the week’s wrap-around from Sunday included',
  })
  @IsDefined()
  @IsObject()
  weekdays!: Record<string, unknown>;
}

const ROTA_LIST_SPEC = {
  sorts: ROTA_SORTS,
  defaultSort: 'team_name' as const,
  defaultDirection: 'desc' as const,
  includes: ROTA_INCLUDES,
};

/** `GET /api/rotas` (not paged): s, o and include, then archived, then teams. */
export class RotaListQuery {
  static readonly listParameters = ['teams'];
  readonly order!: RotaListOrder;
  readonly filters!: RotaListFilters;

  static fromQuery(query: RawQuery): RotaListQuery {
    const q = parseListQuery({ s: query.s, o: query.o, include: query.include }, ROTA_LIST_SPEC);
    const archived = parseBooleanQuery(query, 'archived') ?? false;
    return {
      order: { sort: q.sort!, direction: q.direction, include: q.include },
      filters: { archived, teams: parseIdList(query, 'teams') },
    };
  }
}

/** `GET /api/rota/teams`: `active_on` and `active_between`, read by activeRange. */
export class RotasByTeamQuery {
  readonly range!: DateRange | null | 'none';

  static fromQuery(query: RawQuery): RotasByTeamQuery {
    return { range: activeRange(query) };
  }
}

/**
 * `active_on` and `active_between` of rotas by team: the range a rota must be active on a day of
 * (both ends inclusive), null for no filter, or 'none' when both are given and active_on lies
 * outside active_between (no rota can match both).
 */
function activeRange(query: RawQuery): DateRange | null | 'none' {
  let on: string | undefined;
  let between: DateRange | undefined;
  if (query.active_on !== undefined) {
    on = String(query.active_on);
    if (!isCalendarDate(on)) throw new ValidationError({ active_on: [calendarDateMessage('active_on')] });
  }
  if (query.active_between !== undefined) {
    const parts = String(query.active_between)
      .split(',')
      .map((s) => s.trim());
    if (parts.length !== 2 || !parts.every((p) => isCalendarDate(p))) {
      throw new ValidationError({
        active_between: ['The active_between field must be two dates joined by a comma (YYYY-MM-DD,YYYY-MM-DD).'],
      });
    }
    const [from, to] = parts as [string, string];
    if (to < from)
      throw new ValidationError({
        active_between: ['The active_between field’s second date must not be before its first.'],
      });
    between = { from, to };
  }
  if (on === undefined) return between ?? null;
  if (between && (on < between.from || on > between.to)) return 'none';
  return { from: on, to: on };
}

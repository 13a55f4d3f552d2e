import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { IdRef, type ListQuery, parseBooleanQuery, parseIdList, parseListQuery, type RawQuery } from '#app/platform';
import { MAX_NAME } from '../domain/rota-rules.js';
import { MAX_TIMESLOTS, WEEKDAYS } from '../domain/weekly-timeslots.js';
import {
  SHIFT_PATTERN_INCLUDES,
  SHIFT_PATTERN_SORTS,
  type ShiftPatternFilters,
  type ShiftPatternInclude,
  type ShiftPatternSort,
} from '../shift-pattern/shift-pattern.queries.js';

/*
 * The create body. Its fields are only let through here (`@Allow`: unknown top-level fields are
 * still refused by the validation pipe): the rules are the domain's (shift-pattern.ts
 * checkShiftPattern, domain/pattern-rules.ts checkPattern), so every broken rule of a body, its
 * timeslots' included, is named in one 422. The schemas below say what those rules accept.
 */

const TIME = {
  type: 'string',
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9](:00)?$',
  description: 'HH:MM in the organisation’s zone (HH:MM:00, as views show times, is taken too)',
  example: '09:00',
} as const;
const NUMBER = { type: 'integer', minimum: 0 } as const;
const TIMESLOT_NUMBER = { ...NUMBER, nullable: true, description: 'Absent or null: the pattern’s own' } as const;

@ApiSchema({ name: 'ShiftPatternTimeslotInput', description: 'One timeslot of a new pattern (no other fields)' })
export class PatternTimeslotBody {
  @ApiProperty({ type: 'string', enum: [...WEEKDAYS] }) weekday_start!: string;
  @ApiProperty(TIME) start_time!: string;
  @ApiProperty({
    type: 'string',
    enum: [...WEEKDAYS],
    description:
      'The timeslot ends at the first weekday_end end_time after its start: more than 0 minutes, less than 7 days',
  })
  weekday_end!: string;
  @ApiProperty({ ...TIME, example: '17:00' }) end_time!: string;
  @ApiPropertyOptional(TIMESLOT_NUMBER) min?: number | null;
  @ApiPropertyOptional(TIMESLOT_NUMBER) ideal?: number | null;
  @ApiPropertyOptional({
    ...TIMESLOT_NUMBER,
    minimum: 1,
    description: 'At least 1; min ≤ ideal ≤ max. Absent or null: the pattern’s own',
  })
  max?: number | null;
}

export class CreateShiftPatternBody {
  @ApiProperty({ type: 'string', minLength: 1, maxLength: MAX_NAME, description: 'Not blank' }) @Allow() name!: unknown;
  @ApiPropertyOptional({
    ...NUMBER,
    description: 'Absent: 1, or as far above as ideal or max need (min ≤ ideal ≤ max)',
  })
  @Allow()
  min?: unknown;
  @ApiPropertyOptional({ ...NUMBER, description: 'Absent: 1, moved into [min, max] when those are given' })
  @Allow()
  ideal?: unknown;
  @ApiPropertyOptional({ ...NUMBER, minimum: 1, description: 'Absent: 1, or as far as min or ideal need' })
  @Allow()
  max?: unknown;
  @ApiPropertyOptional({
    type: IdRef,
    nullable: true,
    description: 'An activity category of the organisation; absent or null: none',
  })
  @Allow()
  category?: unknown;
  @ApiProperty({
    type: [PatternTimeslotBody],
    minItems: 1,
    maxItems: MAX_TIMESLOTS,
    description:
      'The weekly timeslots; none may overlap another, the wrap-around from Sunday to Monday included (half-open: touching ends do not overlap)',
  })
  @Allow()
  pattern!: unknown;
}

export const SHIFT_PATTERN_LIST_SPEC = {
  sorts: SHIFT_PATTERN_SORTS,
  defaultSort: 'created_at' as const,
  defaultDirection: 'desc' as const,
  includes: SHIFT_PATTERN_INCLUDES,
};

/** `GET /api/shift-patterns`: the list query of SHIFT_PATTERN_LIST_SPEC, then q, archived, teams. */
export class ShiftPatternListQuery {
  static readonly listParameters = ['teams'];
  readonly list!: ListQuery<ShiftPatternSort, ShiftPatternInclude>;
  readonly filters!: ShiftPatternFilters;

  static fromQuery(query: RawQuery): ShiftPatternListQuery {
    const list = parseListQuery(query, SHIFT_PATTERN_LIST_SPEC);
    const q =
      query.q === undefined ? undefined : String(Array.isArray(query.q) ? query.q[query.q.length - 1] : query.q);
    const archived = parseBooleanQuery(query, 'archived') ?? false;
    return { list, filters: { q: q || undefined, archived, teams: parseIdList(query, 'teams') } };
  }
}

/** `include` of one pattern. */
export class ShiftPatternIncludeQuery {
  readonly include!: ReadonlySet<ShiftPatternInclude>;

  static fromQuery(query: RawQuery): ShiftPatternIncludeQuery {
    return { include: parseListQuery(query, { includes: SHIFT_PATTERN_INCLUDES }).include };
  }
}

import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { TeamDto } from './rota.responses.js';
import { WEEKDAYS, type Weekday } from '../domain/weekly-timeslots.js';
import type { PatternTimeslotView, ShiftPatternView } from '../shift-pattern/shift-pattern.queries.js';

const ID = { type: 'integer', format: 'int64', minimum: 1 } as const;
const TIME = { type: 'string', pattern: '^[0-2][0-9]:[0-5][0-9]:00$', example: '09:00:00' } as const;
const STAMP = {
  type: 'string',
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$',
  example: '2026-03-01 09:30:00',
  description: 'YYYY-MM-DD HH:MM:SS, wall-clock time in the organisation’s zone',
} as const;

/** The interface's Pattern timeslot entry (docs/rota-domain.md#record-shapes). */
@ApiSchema({
  name: 'ShiftPatternTimeslot',
  description: 'Pattern timeslot entry: the timeslot ends at the first weekday_end end_time after its start',
})
export class PatternTimeslotDto implements PatternTimeslotView {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string', enum: [...WEEKDAYS] }) weekday_start!: Weekday;
  @ApiProperty(TIME) start_time!: string;
  @ApiProperty({ type: 'string', enum: [...WEEKDAYS] }) weekday_end!: Weekday;
  @ApiProperty({ ...TIME, example: '17:00:00' }) end_time!: string;
  @ApiProperty({ type: 'integer', minimum: 0 }) min!: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) ideal!: number;
  @ApiProperty({ type: 'integer', minimum: 1 }) max!: number;
}

/** The interface leaves a category's fields open: its id and name (docs/rota-domain.md#shift-patterns). */
@ApiSchema({ name: 'ShiftPatternCategory', description: 'An activity category of the organisation' })
export class PatternCategoryDto {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string' }) name!: string;
}

@ApiSchema({ name: 'ShiftPatternRota', description: 'A rota made from (or replaced with) the pattern' })
export class PatternRotaDto {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string' }) name!: string;
}

/**
 * The interface's Shift pattern (docs/rota-domain.md#shift-patterns). `pattern`, `category`, `teams` and
 * `rotas` are present only when `include` names them (the create answer includes `pattern`).
 */
@ApiSchema({ name: 'ShiftPattern' })
export class ShiftPatternDto implements ShiftPatternView {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string' }) name!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'The pattern’s own numbers: min ≤ ideal ≤ max' })
  min!: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) ideal!: number;
  @ApiProperty({ type: 'integer', minimum: 1 }) max!: number;
  @ApiProperty(STAMP) created_at!: string;
  @ApiProperty(STAMP) updated_at!: string;
  @ApiProperty({
    ...STAMP,
    nullable: true,
    description: 'Set when the pattern was archived (DELETE); null otherwise. Same shape and zone as created_at',
  })
  deleted_at!: string | null;
  @ApiPropertyOptional({
    type: [PatternTimeslotDto],
    description:
      'With include=pattern (and in the create answer): the timeslots, by start in the week (Monday 00:00 first)',
  })
  pattern?: PatternTimeslotDto[];
  @ApiPropertyOptional({
    type: PatternCategoryDto,
    nullable: true,
    description: 'With include=category; null when the pattern has none',
  })
  category?: PatternCategoryDto | null;
  @ApiPropertyOptional({
    type: [TeamDto],
    description:
      'With include=teams: the teams whose non-archived rotas use the pattern, among the teams the caller sees; by name, then id',
  })
  teams?: TeamDto[];
  @ApiPropertyOptional({
    type: [PatternRotaDto],
    description:
      'With include=rotas: the non-archived rotas made from or replaced with the pattern, of teams the caller sees; by name, then id',
  })
  rotas?: PatternRotaDto[];
}

import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsArray, IsDefined, IsIn, IsObject, IsOptional, IsString } from 'class-validator';
import { IsCalendarDate, IsPositiveId } from '#app/platform';
import { BULK_ACTIONS, type BulkActionName, MAX_CONTACT_USERS } from '../rota/bulk.js';
import { MAX_BULK_ROTAS, MAX_CLOSE_DATES, MAX_NAME } from '../domain/rota-rules.js';

// Types and presence are checked here; counts, ranges, dates against today and the action's data
// by the decisions (rota/bulk.ts, rota/replace-rotas.ts), which name array items from 0.

const ID = { type: 'integer', format: 'int64', minimum: 1 } as const;
const DATE = { type: 'string', format: 'date' } as const;

/** The bulk body's `data`: which fields depend on the action (documentation; rota/bulk.ts checks it). */
@ApiSchema({
  name: 'RotaBulkData',
  description: 'The action’s data: only the fields of the chosen action (another field is a 422 naming it).',
})
export class BulkDataDto {
  @ApiPropertyOptional({
    ...DATE,
    description: 'end_date: the new end date, today or later and not before any (non-archived) rota’s start',
  })
  date?: string;
  @ApiPropertyOptional({
    type: 'string',
    minLength: 1,
    maxLength: MAX_NAME,
    description: 'name: the new name of every rota',
  })
  name?: string;
  @ApiPropertyOptional({
    type: 'array',
    items: DATE,
    minItems: 1,
    maxItems: MAX_CLOSE_DATES,
    description: 'close / reopen: the dates, each today or later',
  })
  dates?: string[];
  @ApiPropertyOptional({
    type: 'array',
    items: ID,
    minItems: 1,
    maxItems: MAX_CONTACT_USERS,
    description: 'add_contacts: users of the organisation',
  })
  user_ids?: number[];
}

export class BulkActionBody {
  @ApiProperty({ type: 'string', enum: [...BULK_ACTIONS] })
  @IsDefined()
  @IsIn([...BULK_ACTIONS], { message: `The action field must be one of ${BULK_ACTIONS.join(', ')}.` })
  action!: BulkActionName;

  @ApiProperty({
    type: 'array',
    items: ID,
    minItems: 1,
    maxItems: MAX_BULK_ROTAS,
    description: 'Rotas the caller manages (manage-rotas over each rota’s team)',
  })
  @IsDefined()
  @IsArray()
  @IsPositiveId({ each: true })
  rota_ids!: number[];

  @ApiPropertyOptional({
    type: BulkDataDto,
    nullable: true,
    description: 'Required except for archive_rotas (which takes none)',
  })
  @IsOptional()
  @IsObject()
  data?: Record<string, unknown> | null;
}

export class ReplaceRotasBody {
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    minLength: 1,
    maxLength: MAX_NAME,
    description: 'A new name for every rota; absent or null keeps their names',
  })
  @IsOptional()
  @IsString()
  name?: string | null;

  @ApiProperty({ ...DATE, description: 'First date of the new timeslots: today or later' })
  @IsDefined()
  @IsCalendarDate()
  start_date!: string;

  @ApiPropertyOptional({
    ...DATE,
    nullable: true,
    description:
      'Last date of the new timeslots (not before start_date); absent or null: from start_date on, later versions dropped',
  })
  @IsOptional()
  @IsCalendarDate()
  end_date?: string | null;

  @ApiProperty({ ...ID, description: 'A shift pattern of the organisation, not archived' })
  @IsDefined()
  @IsPositiveId()
  pattern_id!: number;

  @ApiProperty({
    type: 'array',
    items: ID,
    minItems: 1,
    maxItems: MAX_BULK_ROTAS,
    description: 'Rotas the caller manages (manage-rotas over each rota’s team)',
  })
  @IsDefined()
  @IsArray()
  @IsPositiveId({ each: true })
  replace_rotas!: number[];
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsDefined, IsOptional } from 'class-validator';
import { IsPositiveId } from '#app/platform';
import { VALIDATE_LIMITS } from '../rota/validate-contacts.js';

// Types and presence here; the lists' limits (counted as sent), "exactly one of rota_ids and
// team_ids" and unknown ids are checked by rota/validate-contacts.ts.

const ID = { type: 'integer', format: 'int64', minimum: 1 } as const;

export class AddContactBody {
  @ApiProperty({ ...ID, description: 'A user of the rota’s organisation' })
  @IsDefined()
  @IsPositiveId()
  user_id!: number;
}

export class ValidateContactsBody {
  @ApiProperty({
    type: 'array',
    items: ID,
    maxItems: VALIDATE_LIMITS.user_ids,
    description: 'Users of the organisation (at most 50, counted as sent)',
  })
  @IsDefined()
  @IsArray()
  @IsPositiveId({ each: true })
  user_ids!: number[];

  @ApiPropertyOptional({
    type: 'array',
    items: ID,
    maxItems: VALIDATE_LIMITS.rota_ids,
    nullable: true,
    description: 'Rotas the caller manages (at most 500); exactly one of rota_ids and team_ids (null counts as absent)',
  })
  @IsOptional()
  @IsArray()
  @IsPositiveId({ each: true })
  rota_ids?: number[] | null;

  @ApiPropertyOptional({
    type: 'array',
    items: ID,
    maxItems: VALIDATE_LIMITS.team_ids,
    nullable: true,
    description: 'Teams the caller manages (at most 100); exactly one of rota_ids and team_ids (null counts as absent)',
  })
  @IsOptional()
  @IsArray()
  @IsPositiveId({ each: true })
  team_ids?: number[] | null;
}

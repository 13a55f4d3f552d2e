import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { IdRef, IsDateTimeWithOffset, IsOptionalNotNull, IsReference } from '#app/platform';

// Nullable optional fields use @IsOptional() (absent or null); the others @IsOptionalNotNull().

export class CreateClaimBody {
  @ApiProperty({ type: IdRef, description: 'One of the caller’s authorisers' })
  @IsDefined()
  @IsReference()
  assignedTo!: IdRef;
  @ApiPropertyOptional() @IsOptionalNotNull() @IsString() @MaxLength(5000) notes?: string;
  @ApiProperty({ type: [IdRef], description: 'Unclaimed expenses of the caller, all of one role' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @IsReference({ each: true })
  expenses!: IdRef[];
}

export class UpdateClaimBody {
  @ApiPropertyOptional({ type: IdRef }) @IsOptionalNotNull() @IsReference() assignedTo?: IdRef;
  @ApiPropertyOptional() @IsOptionalNotNull() @IsString() @MaxLength(5000) notes?: string;
  @ApiPropertyOptional({ description: 'Rejects an open claim; its expenses become unclaimed' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(5000)
  rejection_note?: string;
  @ApiPropertyOptional({
    description: 'true approves (approve-claims over the owner, or self-approve-claims for one’s own)',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  approved?: boolean;
  @ApiPropertyOptional({ type: 'string', nullable: true }) @IsOptional() @IsString() @MaxLength(5000) approval_note?:
    string | null;
  @ApiPropertyOptional({
    description: 'true submits an approved claim to the organisation’s expenses_submission_email',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  submitted?: boolean;
  @ApiPropertyOptional({ format: 'date-time', description: 'Defaults to now' })
  @IsOptionalNotNull()
  @IsDateTimeWithOffset()
  submitted_date?: string;
}

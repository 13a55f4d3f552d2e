import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDefined, IsISO8601, IsOptional, IsString, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { IdRef } from './expense.dto.js';

export class CreateClaimBody {
  @ApiProperty({ type: IdRef, description: 'One of the caller’s authorisers' }) @IsDefined() @ValidateNested() @Type(() => IdRef) assignedTo!: IdRef;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(5000) notes?: string;
  @ApiProperty({ type: [IdRef], description: 'Unclaimed expenses of the caller, all of one role' })
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(500) @ValidateNested({ each: true }) @Type(() => IdRef) expenses!: IdRef[];
}

export class UpdateClaimBody {
  @ApiPropertyOptional({ type: IdRef }) @IsOptional() @ValidateNested() @Type(() => IdRef) assignedTo?: IdRef;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(5000) notes?: string;
  @ApiPropertyOptional({ description: 'Rejects an open claim; its expenses become unclaimed' }) @IsOptional() @IsString() @MaxLength(5000) rejection_note?: string;
  @ApiPropertyOptional({ description: 'true approves (approve-claims over the owner, or self-approve-claims for one’s own)' }) @IsOptional() @IsBoolean() approved?: boolean;
  @ApiPropertyOptional({ nullable: true }) @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(5000) approval_note?: string | null;
  @ApiPropertyOptional({ description: 'true submits an approved claim to the organisation’s expenses_submission_email' }) @IsOptional() @IsBoolean() submitted?: boolean;
  @ApiPropertyOptional({ format: 'date-time', description: 'Defaults to now' }) @IsOptional() @IsISO8601() submitted_date?: string;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import type { ExpenseValues } from '../expense/expense.commands.js';

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export class IdRef {
  @ApiProperty() @IsInt() @Min(1) id!: number;
}

export class UpdateExpenseBody {
  @ApiPropertyOptional({ description: 'Ignored when a rate is given: the service computes miles × rate + miles × passengers × passenger_rate' })
  @IsOptional() @IsNumber({ maxDecimalPlaces: 2 }) @Min(0) @Max(1_000_000) amount?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2000) description?: string;
  @ApiPropertyOptional({ format: 'date', description: 'Not in the future, nor older than the organisation’s expenses_max_age months' })
  @IsOptional() @Matches(DATE, { message: 'date must be a date (YYYY-MM-DD)' }) date?: string;
  @ApiPropertyOptional({ nullable: true }) @IsOptional() @ValidateIf((_, v) => v !== null) @IsNumber({ maxDecimalPlaces: 2 }) @Min(0) @Max(100_000) miles?: number | null;
  @ApiPropertyOptional({ nullable: true }) @IsOptional() @ValidateIf((_, v) => v !== null) @IsInt() @Min(0) @Max(100) passengers?: number | null;
  @ApiPropertyOptional({ type: IdRef }) @IsOptional() @ValidateNested() @Type(() => IdRef) type?: IdRef;
  @ApiPropertyOptional({ type: IdRef, nullable: true }) @IsOptional() @ValidateIf((_, v) => v !== null) @ValidateNested() @Type(() => IdRef) rate?: IdRef | null;
  @ApiPropertyOptional({ type: IdRef, nullable: true, description: 'One of the caller’s roles' }) @IsOptional() @ValidateIf((_, v) => v !== null) @ValidateNested() @Type(() => IdRef) role?: IdRef | null;
}

/** Standalone rather than extending the update body: class-validator would keep the parent's @IsOptional. */
export class CreateExpenseBody {
  @ApiPropertyOptional({ description: 'Required without a rate; with one the service computes it' })
  @IsOptional() @IsNumber({ maxDecimalPlaces: 2 }) @Min(0) @Max(1_000_000) amount?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2000) description?: string;
  @ApiPropertyOptional({ format: 'date', nullable: true }) @IsOptional() @ValidateIf((_, v) => v !== null) @Matches(DATE, { message: 'submitted must be a date (YYYY-MM-DD)' }) submitted?: string | null;
  @ApiProperty({ format: 'date' }) @IsDefined() @Matches(DATE, { message: 'date must be a date (YYYY-MM-DD)' }) date!: string;
  @ApiPropertyOptional({ nullable: true }) @IsOptional() @ValidateIf((_, v) => v !== null) @IsNumber({ maxDecimalPlaces: 2 }) @Min(0) @Max(100_000) miles?: number | null;
  @ApiPropertyOptional({ nullable: true }) @IsOptional() @ValidateIf((_, v) => v !== null) @IsInt() @Min(0) @Max(100) passengers?: number | null;
  @ApiProperty({ type: IdRef }) @IsDefined() @ValidateNested() @Type(() => IdRef) type!: IdRef;
  @ApiPropertyOptional({ type: IdRef, nullable: true }) @IsOptional() @ValidateIf((_, v) => v !== null) @ValidateNested() @Type(() => IdRef) rate?: IdRef | null;
  @ApiPropertyOptional({ type: IdRef, nullable: true, description: 'One of the caller’s roles' }) @IsOptional() @ValidateIf((_, v) => v !== null) @ValidateNested() @Type(() => IdRef) role?: IdRef | null;
}

export function expenseValues(body: UpdateExpenseBody | CreateExpenseBody): ExpenseValues {
  const v: ExpenseValues = {
    amount: body.amount, description: body.description, date: body.date, miles: body.miles, passengers: body.passengers, submitted: 'submitted' in body ? body.submitted : undefined,
    typeId: body.type?.id, rateId: body.rate === null ? null : body.rate?.id, roleId: body.role === null ? null : body.role?.id,
  };
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as ExpenseValues;
}

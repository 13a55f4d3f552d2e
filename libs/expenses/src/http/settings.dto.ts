import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export class CreateExpenseTypeBody {
  @ApiProperty({ maxLength: 255 }) @IsString() @IsNotEmpty() @MaxLength(255) name!: string;
  @ApiProperty({ description: 'Ordering position; returned as order_id' }) @IsInt() @Min(-2147483648) @Max(2147483647) position!: number;
}

export class UpdateExpenseTypeBody {
  @ApiPropertyOptional({ maxLength: 255 }) @IsOptional() @IsString() @IsNotEmpty() @MaxLength(255) name?: string;
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(-2147483648) @Max(2147483647) position?: number;
}

export class UpdateExpenseRateBody {
  @ApiPropertyOptional({ maxLength: 255 }) @IsOptional() @IsString() @IsNotEmpty() @MaxLength(255) short_name?: string;
  @ApiPropertyOptional({ format: 'date', nullable: true }) @IsOptional() @ValidateIf((_, v) => v !== null) @Matches(DATE, { message: 'start_date must be a date (YYYY-MM-DD)' }) start_date?: string | null;
  @ApiPropertyOptional({ format: 'date', nullable: true }) @IsOptional() @ValidateIf((_, v) => v !== null) @Matches(DATE, { message: 'end_date must be a date (YYYY-MM-DD)' }) end_date?: string | null;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2000) description?: string;
  @ApiPropertyOptional({ description: 'Rate per mile' }) @IsOptional() @IsNumber({ maxDecimalPlaces: 4 }) @Min(0) @Max(1000) rate?: number;
  @ApiPropertyOptional({ description: 'Rate per passenger per mile' }) @IsOptional() @IsNumber({ maxDecimalPlaces: 4 }) @Min(0) @Max(1000) passenger_rate?: number;
  @ApiPropertyOptional({ nullable: true }) @IsOptional() @ValidateIf((_, v) => v !== null) @IsInt() @Min(0) @Max(100000) max_miles?: number | null;
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(-2147483648) @Max(2147483647) order_id?: number;
}

/** Standalone rather than extending the update body: class-validator would keep the parent's @IsOptional. */
export class CreateExpenseRateBody {
  @ApiProperty({ maxLength: 255 }) @IsString() @IsNotEmpty() @MaxLength(255) short_name!: string;
  @ApiPropertyOptional({ format: 'date', nullable: true }) @IsOptional() @ValidateIf((_, v) => v !== null) @Matches(DATE, { message: 'start_date must be a date (YYYY-MM-DD)' }) start_date?: string | null;
  @ApiPropertyOptional({ format: 'date', nullable: true }) @IsOptional() @ValidateIf((_, v) => v !== null) @Matches(DATE, { message: 'end_date must be a date (YYYY-MM-DD)' }) end_date?: string | null;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2000) description?: string;
  @ApiProperty({ description: 'Rate per mile' }) @IsNumber({ maxDecimalPlaces: 4 }) @Min(0) @Max(1000) rate!: number;
  @ApiPropertyOptional({ description: 'Rate per passenger per mile' }) @IsOptional() @IsNumber({ maxDecimalPlaces: 4 }) @Min(0) @Max(1000) passenger_rate?: number;
  @ApiPropertyOptional({ nullable: true }) @IsOptional() @ValidateIf((_, v) => v !== null) @IsInt() @Min(0) @Max(100000) max_miles?: number | null;
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(-2147483648) @Max(2147483647) order_id?: number;
}

export function rateValues(body: UpdateExpenseRateBody) {
  const v = {
    shortName: body.short_name, startDate: body.start_date, endDate: body.end_date, description: body.description,
    rate: body.rate, passengerRate: body.passenger_rate, maxMiles: body.max_miles, orderId: body.order_id,
  };
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined));
}

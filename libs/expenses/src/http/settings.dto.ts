import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsCalendarDate, IsDecimal, IsOptionalNotNull } from '#app/platform';

// Nullable optional fields use @IsOptional() (absent or null); the others @IsOptionalNotNull().

export class CreateExpenseTypeBody {
  @ApiProperty({ maxLength: 255 }) @IsString() @IsNotEmpty() @MaxLength(255) name!: string;
  @ApiPropertyOptional({ description: 'Ordering position; returned as order_id; 0 when absent' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(-2147483648)
  @Max(2147483647)
  position?: number;
}

export class UpdateExpenseTypeBody {
  @ApiPropertyOptional({ maxLength: 255 }) @IsOptionalNotNull() @IsString() @IsNotEmpty() @MaxLength(255) name?: string;
  @ApiPropertyOptional() @IsOptionalNotNull() @IsInt() @Min(-2147483648) @Max(2147483647) position?: number;
}

export class UpdateExpenseRateBody {
  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  short_name?: string;
  @ApiPropertyOptional({ type: 'string', format: 'date', nullable: true }) @IsOptional() @IsCalendarDate() start_date?:
    string | null;
  @ApiPropertyOptional({ type: 'string', format: 'date', nullable: true }) @IsOptional() @IsCalendarDate() end_date?:
    string | null;
  @ApiPropertyOptional() @IsOptionalNotNull() @IsString() @MaxLength(2000) description?: string;
  @ApiPropertyOptional({ description: 'Rate per mile' })
  @IsOptionalNotNull()
  @IsDecimal(4)
  @Min(0)
  @Max(1000)
  rate?: number;
  @ApiPropertyOptional({ description: 'Rate per passenger per mile' })
  @IsOptionalNotNull()
  @IsDecimal(4)
  @Min(0)
  @Max(1000)
  passenger_rate?: number;
  @ApiPropertyOptional({ type: 'integer', nullable: true }) @IsOptional() @IsInt() @Min(0) @Max(100000) max_miles?:
    number | null;
  @ApiPropertyOptional() @IsOptionalNotNull() @IsInt() @Min(-2147483648) @Max(2147483647) order_id?: number;
}

/** Standalone rather than extending the update body: class-validator would keep the parent's optional rules. */
export class CreateExpenseRateBody {
  @ApiProperty({ maxLength: 255 }) @IsString() @IsNotEmpty() @MaxLength(255) short_name!: string;
  @ApiPropertyOptional({ type: 'string', format: 'date', nullable: true }) @IsOptional() @IsCalendarDate() start_date?:
    string | null;
  @ApiPropertyOptional({ type: 'string', format: 'date', nullable: true }) @IsOptional() @IsCalendarDate() end_date?:
    string | null;
  @ApiPropertyOptional() @IsOptionalNotNull() @IsString() @MaxLength(2000) description?: string;
  @ApiProperty({ description: 'Rate per mile' }) @IsDecimal(4) @Min(0) @Max(1000) rate!: number;
  @ApiPropertyOptional({ description: 'Rate per passenger per mile' })
  @IsOptionalNotNull()
  @IsDecimal(4)
  @Min(0)
  @Max(1000)
  passenger_rate?: number;
  @ApiPropertyOptional({ type: 'integer', nullable: true }) @IsOptional() @IsInt() @Min(0) @Max(100000) max_miles?:
    number | null;
  @ApiPropertyOptional() @IsOptionalNotNull() @IsInt() @Min(-2147483648) @Max(2147483647) order_id?: number;
}

export function rateValues(body: UpdateExpenseRateBody) {
  const v = {
    shortName: body.short_name,
    startDate: body.start_date,
    endDate: body.end_date,
    description: body.description,
    rate: body.rate,
    passengerRate: body.passenger_rate,
    maxMiles: body.max_miles,
    orderId: body.order_id,
  };
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined));
}

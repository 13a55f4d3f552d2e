import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  IdRef,
  IsCalendarDate,
  IsDecimal,
  IsOptionalNotNull,
  IsReference,
  type ListQuery,
  parseBooleanQuery,
  parseListQuery,
  type RawQuery,
} from '#app/platform';
import type { ExpenseValues } from '../expense/expense.js';
import { EXPENSE_INCLUDES, type ExpenseInclude } from '../expense/expense.queries.js';

// Nullable optional fields use @IsOptional() (absent or null); the others @IsOptionalNotNull().

export class UpdateExpenseBody {
  @ApiPropertyOptional({
    description:
      'Ignored when a rate is given: the service computes miles × rate + miles × passengers × passenger_rate',
  })
  @IsOptionalNotNull()
  @IsDecimal(2)
  @Min(0)
  @Max(1_000_000)
  amount?: number;
  @ApiPropertyOptional() @IsOptionalNotNull() @IsString() @MaxLength(2000) description?: string;
  @ApiPropertyOptional({
    format: 'date',
    description: 'Not in the future, nor older than the organisation’s expenses_max_age months',
  })
  @IsOptionalNotNull()
  @IsCalendarDate()
  date?: string;
  @ApiPropertyOptional({ type: 'number', nullable: true }) @IsOptional() @IsDecimal(2) @Min(0) @Max(100_000) miles?:
    number | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true }) @IsOptional() @IsInt() @Min(0) @Max(100) passengers?:
    number | null;
  @ApiPropertyOptional({ type: IdRef }) @IsOptionalNotNull() @IsReference() type?: IdRef;
  @ApiPropertyOptional({ type: IdRef, nullable: true }) @IsOptional() @IsReference() rate?: IdRef | null;
  @ApiPropertyOptional({ type: IdRef, nullable: true, description: 'One of the caller’s roles' })
  @IsOptional()
  @IsReference()
  role?: IdRef | null;
}

/** Standalone rather than extending the update body: class-validator would keep the parent's optional rules. */
export class CreateExpenseBody {
  @ApiPropertyOptional({ description: 'Required without a rate; with one the service computes it' })
  @IsOptionalNotNull()
  @IsDecimal(2)
  @Min(0)
  @Max(1_000_000)
  amount?: number;
  @ApiPropertyOptional() @IsOptionalNotNull() @IsString() @MaxLength(2000) description?: string;
  @ApiPropertyOptional({ type: 'string', format: 'date', nullable: true }) @IsOptional() @IsCalendarDate() submitted?:
    string | null;
  @ApiProperty({ format: 'date' }) @IsDefined() @IsCalendarDate() date!: string;
  @ApiPropertyOptional({ type: 'number', nullable: true }) @IsOptional() @IsDecimal(2) @Min(0) @Max(100_000) miles?:
    number | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true }) @IsOptional() @IsInt() @Min(0) @Max(100) passengers?:
    number | null;
  @ApiProperty({ type: IdRef }) @IsDefined() @IsReference() type!: IdRef;
  @ApiPropertyOptional({ type: IdRef, nullable: true }) @IsOptional() @IsReference() rate?: IdRef | null;
  @ApiPropertyOptional({ type: IdRef, nullable: true, description: 'One of the caller’s roles' })
  @IsOptional()
  @IsReference()
  role?: IdRef | null;
}

export function expenseValues(body: UpdateExpenseBody | CreateExpenseBody): ExpenseValues {
  const v: ExpenseValues = {
    amount: body.amount,
    description: body.description,
    date: body.date,
    miles: body.miles,
    passengers: body.passengers,
    submitted: 'submitted' in body ? body.submitted : undefined,
    typeId: body.type?.id,
    rateId: body.rate === null ? null : body.rate?.id,
    roleId: body.role === null ? null : body.role?.id,
  };
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as ExpenseValues;
}

/** Newest first by default (docs/api-guide.md): date, then id, descending; `o=a` gives oldest first. */
export const EXPENSE_LIST_SPEC = {
  sorts: ['date'] as const,
  defaultDirection: 'desc' as const,
  includes: EXPENSE_INCLUDES,
};

/** `GET /api/users/{userId}/expenses`: the list query of EXPENSE_LIST_SPEC, then `claimed`. */
export class ExpenseListQuery {
  readonly list!: ListQuery<'date', ExpenseInclude>;
  readonly claimed?: boolean;

  static fromQuery(query: RawQuery): ExpenseListQuery {
    const list = parseListQuery(query, EXPENSE_LIST_SPEC);
    return { list, claimed: parseBooleanQuery(query, 'claimed') };
  }
}

/** `include` of one expense. */
export class ExpenseIncludeQuery {
  readonly include!: ReadonlySet<ExpenseInclude>;

  static fromQuery(query: RawQuery): ExpenseIncludeQuery {
    return { include: parseListQuery(query, { includes: EXPENSE_INCLUDES }).include };
  }
}

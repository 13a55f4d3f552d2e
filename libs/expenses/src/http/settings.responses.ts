import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { ExpenseRateView, ExpenseTypeView } from '../types/expense-settings.queries.js';

const ID = { type: 'integer', format: 'int64', minimum: 1 } as const;
const INT32 = { type: 'integer', format: 'int32' } as const;
/**
 * The interface's `YYYY-MM-DD HH:MM:SS` shape (UTC) of an expense rate's timestamps
 * (docs/expense-rules.md#record-shapes).
 */
const STAMP = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
  example: '2026-03-01 09:30:00',
  description: 'YYYY-MM-DD HH:MM:SS, UTC',
} as const;

/** The interface's Expense type, unwrapped (docs/expense-rules.md#expense-types-and-rates). */
@ApiSchema({ name: 'ExpenseType' })
export class ExpenseTypeDto implements ExpenseTypeView {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string', maxLength: 255 }) name!: string;
  @ApiProperty({ ...INT32, description: 'Ordering position; set from position of the create/update body' })
  order_id!: number;
}

/** The interface's Expense rate, unwrapped (docs/expense-rules.md#expense-types-and-rates). */
@ApiSchema({ name: 'ExpenseRate' })
export class ExpenseRateDto implements ExpenseRateView {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string' }) description!: string;
  @ApiProperty({ type: 'string', maxLength: 255 }) short_name!: string;
  @ApiProperty({ type: 'string', format: 'date', nullable: true }) start_date!: string | null;
  @ApiProperty({ type: 'string', format: 'date', nullable: true }) end_date!: string | null;
  @ApiProperty({ type: 'number', format: 'float', description: 'Rate per mile' }) rate!: number;
  @ApiProperty({ type: 'number', format: 'float', description: 'Rate per passenger per mile' }) passenger_rate!: number;
  @ApiProperty({ ...INT32, nullable: true }) max_miles!: number | null;
  @ApiProperty(INT32) order_id!: number;
  @ApiProperty(STAMP) created_at!: string;
  @ApiProperty(STAMP) updated_at!: string;
}

import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { ExpenseView } from '../expense/expense.queries.js';
import { AttachmentDto } from '#app/files';
import { RoleDto, UserBaseDto } from '#app/identity';
import { ExpenseRateDto, ExpenseTypeDto } from './settings.responses.js';

const ID = { type: 'integer', format: 'int64', minimum: 1 } as const;
const DATE_TIME = {
  type: 'string',
  format: 'date-time',
  example: '2026-03-01T09:30:00Z',
  description: 'UTC, whole seconds',
} as const;

/**
 * The interface's Expense, unwrapped (docs/expense-rules.md#record-shapes). `user`, `type`, `rate`,
 * `attachments` and `role` are present only when `include` names them (`role.roleProfile` adds
 * `role.roleProfile`).
 */
@ApiSchema({ name: 'Expense' })
export class ExpenseDto implements ExpenseView {
  @ApiProperty(ID) id!: number;
  @ApiProperty({
    type: 'number',
    format: 'float',
    description: 'With a rate: miles × rate + miles × passengers × passenger_rate',
  })
  amount!: number;
  @ApiProperty({ type: 'string' }) description!: string;
  @ApiProperty({ type: 'string', format: 'date', nullable: true }) submitted!: string | null;
  @ApiProperty({ type: 'boolean', description: 'Claimed expenses cannot be changed or deleted' }) claimed!: boolean;
  @ApiProperty(DATE_TIME) created_at!: string;
  @ApiProperty(DATE_TIME) updated_at!: string;
  @ApiProperty({ type: 'string', format: 'date' }) date!: string;
  @ApiProperty({ type: 'number', format: 'float', nullable: true }) miles!: number | null;
  @ApiProperty({ type: 'integer', format: 'int32', nullable: true }) passengers!: number | null;
  @ApiProperty(ID) user_id!: number;
  @ApiProperty(ID) type_id!: number;
  @ApiProperty({ ...ID, nullable: true }) rate_id!: number | null;
  @ApiProperty({ ...ID, nullable: true }) role_id!: number | null;
  @ApiPropertyOptional({ type: UserBaseDto, nullable: true, description: 'With include=user' })
  user?: UserBaseDto | null;
  @ApiPropertyOptional({ type: ExpenseTypeDto, description: 'With include=type (a deleted type too)' })
  type?: ExpenseTypeDto;
  @ApiPropertyOptional({
    type: ExpenseRateDto,
    nullable: true,
    description: 'With include=rate (a deleted rate too); null without a rate',
  })
  rate?: ExpenseRateDto | null;
  @ApiPropertyOptional({ type: [AttachmentDto], description: 'With include=attachments, in the order attached' })
  attachments?: AttachmentDto[];
  @ApiPropertyOptional({
    type: RoleDto,
    nullable: true,
    description: 'With include=role or role.roleProfile; null without a role',
  })
  role?: RoleDto | null;
}

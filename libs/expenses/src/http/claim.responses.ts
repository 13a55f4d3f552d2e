import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { ClaimView } from '../claim/claim.queries.js';
import { RoleDto, UserBaseDto } from '#app/identity';
import { ExpenseDto } from './expense.responses.js';

const ID = { type: 'integer', format: 'int64', minimum: 1 } as const;
const DATE_TIME = {
  type: 'string',
  format: 'date-time',
  example: '2026-03-01T09:30:00Z',
  description: 'UTC, whole seconds',
} as const;

/**
 * The interface's Claim (unwrapped), with its id and the ids of the people it names
 * (docs/expense-rules.md#record-shapes). `user`, `assignedTo`, `approvedBy`, `expenses` and `role` are
 * present only when `include` names them.
 */
@ApiSchema({ name: 'Claim' })
export class ClaimDto implements ClaimView {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ ...ID, description: 'The owner' }) user_id!: number;
  @ApiProperty({ ...ID, description: 'The authoriser' }) assigned_to_id!: number;
  @ApiProperty({ ...ID, nullable: true, description: 'The approver; null until approved' }) approved_by_id!:
    number | null;
  @ApiProperty({ type: 'boolean' }) approved!: boolean;
  @ApiProperty({ ...DATE_TIME, nullable: true }) approved_at!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) approval_note!: string | null;
  @ApiProperty({ type: 'boolean' }) submitted!: boolean;
  @ApiProperty({ ...DATE_TIME, nullable: true }) submitted_at!: string | null;
  @ApiProperty({ type: 'number', format: 'float', description: 'Sum of the expenses’ amounts' }) amount!: number;
  @ApiProperty({ type: 'string' }) notes!: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'Set when the claim was rejected' }) rejection_note!:
    string | null;
  @ApiProperty(DATE_TIME) created_at!: string;
  @ApiProperty(DATE_TIME) updated_at!: string;
  @ApiPropertyOptional({ type: UserBaseDto, nullable: true, description: 'The owner, with include=user' })
  user?: UserBaseDto | null;
  @ApiPropertyOptional({ type: UserBaseDto, nullable: true, description: 'The authoriser, with include=assignedTo' })
  assignedTo?: UserBaseDto | null;
  @ApiPropertyOptional({
    type: UserBaseDto,
    nullable: true,
    description: 'The approver, with include=approvedBy; null until approved',
  })
  approvedBy?: UserBaseDto | null;
  @ApiPropertyOptional({
    type: [ExpenseDto],
    description: 'With include=expenses: the claimed expenses, without their own includes (empty once rejected)',
  })
  expenses?: ExpenseDto[];
  @ApiPropertyOptional({
    type: RoleDto,
    nullable: true,
    description: 'With include=role or role.roleProfile; null without a role',
  })
  role?: RoleDto | null;
}

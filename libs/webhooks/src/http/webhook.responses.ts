import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ClaimDto, ExpenseDto } from '#app/expenses';
import { RotaDto, ShiftDto } from '#app/rotas';
import { DELIVERY_STATUSES, type DeliveryStatus, type DeliveryView } from '../delivery/deliveries.js';
import type { EndpointView } from '../endpoint/endpoint.queries.js';
import { ALL_EVENTS, PUBLIC_EVENT_TYPES } from '../event-types.js';

const ID = { type: 'integer', format: 'int64', minimum: 1 } as const;
const DATE_TIME = {
  type: 'string',
  format: 'date-time',
  example: '2026-03-01T09:30:00Z',
  description: 'UTC, whole seconds',
} as const;
const SECRET = {
  type: 'string',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  description: '`whsec_` + base64 of 32 random bytes: shown in this answer only, never again',
} as const;

/** The Endpoint record (docs/webhooks.md#endpoints). */
@ApiSchema({ name: 'WebhookEndpoint', description: 'Where webhooks go, and which' })
export class EndpointDto implements EndpointView {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string', example: 'https://hooks.example.org/uvol' }) url!: string;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [ALL_EVENTS, ...PUBLIC_EVENT_TYPES] } })
  events!: string[];
  @ApiProperty({ type: 'string' }) description!: string;
  @ApiProperty({ type: 'boolean' }) enabled!: boolean;
  @ApiProperty(DATE_TIME) created_at!: string;
  @ApiProperty(DATE_TIME) updated_at!: string;
}

@ApiSchema({ name: 'WebhookEndpointWithSecret', description: 'A new endpoint, with its secret (this once)' })
export class EndpointWithSecretDto extends EndpointDto {
  @ApiProperty(SECRET) secret!: string;
}

@ApiSchema({ name: 'WebhookSecret', description: 'A rotated secret (this once); the old one signs too for 24 hours' })
export class SecretDto {
  @ApiProperty(SECRET) secret!: string;
}

/** The Delivery record (docs/webhooks.md#deliveries). */
@ApiSchema({ name: 'WebhookDelivery', description: 'One event owed to one endpoint, and how its attempts went' })
export class DeliveryDto implements DeliveryView {
  @ApiProperty({
    type: 'string',
    example: 'msg_2b3Jx0rVQn1qYbH8e7LwM4tK9sA',
    description: 'The webhook-id header, the same on every attempt',
  })
  id!: string;
  @ApiProperty({ type: 'string', enum: PUBLIC_EVENT_TYPES }) event_type!: string;
  @ApiProperty(DATE_TIME) created_at!: string;
  @ApiProperty({ type: 'string', enum: DELIVERY_STATUSES }) status!: DeliveryStatus;
  @ApiProperty({ type: 'integer', minimum: 0 }) attempts!: number;
  @ApiProperty({
    ...DATE_TIME,
    nullable: true,
    description: 'When the last attempt started (its webhook-timestamp), not when it ended; null before any',
  })
  last_attempt_at!: string | null;
  @ApiProperty({ ...DATE_TIME, nullable: true, description: 'When a pending delivery is tried next; null otherwise' })
  next_attempt_at!: string | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The last HTTP status; null before any or when none came',
  })
  response_status!: number | null;
}

// --- What receivers get: one schema per family of event types (docs/webhooks.md#event-types). ---

const TYPE = (types: string[]) => ({ type: 'string', enum: types }) as const;
const TIMESTAMP = { ...DATE_TIME, description: 'When the event happened (ISO 8601)' } as const;
/** The Shift as a shift.* or attendance.recorded event carries it: `cancelled` on shift.cancelled only. */
@ApiSchema({
  name: 'WebhookShift',
  description: 'The Shift record; for shift.cancelled, as it was, with cancelled: true',
})
export class ShiftWebhookDataDto extends ShiftDto {
  @ApiProperty({ type: 'boolean', enum: [true], required: false, description: 'Present on shift.cancelled only' })
  cancelled?: true;
}

/** The Expense as an expense.* event carries it: `deleted` on expense.deleted only. */
@ApiSchema({ name: 'WebhookExpense', description: 'The Expense; for expense.deleted, as it was, with deleted: true' })
export class ExpenseWebhookDataDto extends ExpenseDto {
  @ApiProperty({ type: 'boolean', enum: [true], required: false, description: 'Present on expense.deleted only' })
  deleted?: true;
}

@ApiSchema({ name: 'WebhookRepeatingShift', description: 'A series of shifts, as repeating_shift.* carry it' })
export class RepeatingShiftWebhookDataDto {
  @ApiProperty(ID) id!: number;
  @ApiProperty(ID) user_id!: number;
  @ApiProperty(ID) rota_id!: number;
  @ApiProperty({ type: 'string', enum: ['week'] }) period!: 'week';
  @ApiProperty({ type: 'integer', minimum: 1 }) frequency!: number;
  @ApiProperty({ type: 'string', example: '2026-03-02 09:00:00', description: 'The first shift’s local start' })
  start_date!: string;
  @ApiProperty({ type: 'string', nullable: true, example: '2026-06-28 23:59:59', description: 'The last day, or null' })
  end_date!: string | null;
}

@ApiSchema({
  name: 'WebhookShiftEvent',
  description:
    'shift.booked, shift.changed, shift.cancelled, attendance.recorded: the Shift record (for attendance.recorded, ' +
    'with its attendance: null after a clear)',
})
export class ShiftWebhookDto {
  @ApiProperty(TYPE(['shift.booked', 'shift.changed', 'shift.cancelled', 'attendance.recorded'])) type!: string;
  @ApiProperty(TIMESTAMP) timestamp!: string;
  @ApiProperty({ type: ShiftWebhookDataDto }) data!: ShiftWebhookDataDto;
}

@ApiSchema({ name: 'WebhookRepeatingShiftEvent', description: 'repeating_shift.started, repeating_shift.ended' })
export class RepeatingShiftWebhookDto {
  @ApiProperty(TYPE(['repeating_shift.started', 'repeating_shift.ended'])) type!: string;
  @ApiProperty(TIMESTAMP) timestamp!: string;
  @ApiProperty({ type: RepeatingShiftWebhookDataDto }) data!: RepeatingShiftWebhookDataDto;
}

@ApiSchema({
  name: 'WebhookRotaEvent',
  description: 'rota.created, rota.changed, rota.archived: the Rota (administration view)',
})
export class RotaWebhookDto {
  @ApiProperty(TYPE(['rota.created', 'rota.changed', 'rota.archived'])) type!: string;
  @ApiProperty(TIMESTAMP) timestamp!: string;
  @ApiProperty({ type: RotaDto }) data!: RotaDto;
}

@ApiSchema({
  name: 'WebhookClaimEvent',
  description: 'claim.created, claim.approved, claim.rejected, claim.submitted: the Claim',
})
export class ClaimWebhookDto {
  @ApiProperty(TYPE(['claim.created', 'claim.approved', 'claim.rejected', 'claim.submitted'])) type!: string;
  @ApiProperty(TIMESTAMP) timestamp!: string;
  @ApiProperty({ type: ClaimDto }) data!: ClaimDto;
}

@ApiSchema({
  name: 'WebhookExpenseEvent',
  description: 'expense.created, expense.updated, expense.deleted: the Expense',
})
export class ExpenseWebhookDto {
  @ApiProperty(TYPE(['expense.created', 'expense.updated', 'expense.deleted'])) type!: string;
  @ApiProperty(TIMESTAMP) timestamp!: string;
  @ApiProperty({ type: ExpenseWebhookDataDto }) data!: ExpenseWebhookDataDto;
}

@ApiSchema({ name: 'WebhookUserData' })
export class UserWebhookDataDto {
  @ApiProperty(ID) id!: number;
}

@ApiSchema({
  name: 'WebhookUserEvent',
  description:
    'user.anonymised: the id of a user just anonymised; erase your copies of their personal data (docs/privacy.md)',
})
export class UserWebhookDto {
  @ApiProperty(TYPE(['user.anonymised'])) type!: string;
  @ApiProperty(TIMESTAMP) timestamp!: string;
  @ApiProperty({ type: UserWebhookDataDto }) data!: UserWebhookDataDto;
}

@ApiSchema({ name: 'WebhookPingData' })
export class PingDataDto {
  @ApiProperty(ID) endpoint_id!: number;
}

@ApiSchema({ name: 'WebhookPingEvent', description: 'ping: sent on request (POST /api/webhooks/{id}/ping)' })
export class PingWebhookDto {
  @ApiProperty(TYPE(['ping'])) type!: string;
  @ApiProperty(TIMESTAMP) timestamp!: string;
  @ApiProperty({ type: PingDataDto }) data!: PingDataDto;
}

export const WEBHOOK_PAYLOADS = [
  ShiftWebhookDto,
  RepeatingShiftWebhookDto,
  RotaWebhookDto,
  ClaimWebhookDto,
  ExpenseWebhookDto,
  UserWebhookDto,
  PingWebhookDto,
  ShiftDto,
  RotaDto,
  ClaimDto,
  ExpenseDto,
];

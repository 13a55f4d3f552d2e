import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { HistoryEntry } from '#app/event-store';
import { UserBaseDto } from './user.responses.js';

/**
 * One entry of a record's history, for the document of every history route (docs/rota-domain.md#history).
 * It lives here rather than beside the event store's HistoryReader because its actor is identity's
 * UserBase, which the event store (below identity) may not name.
 */
@ApiSchema({ name: 'HistoryEntry', description: 'One event of a record’s history' })
export class HistoryEntryDto implements HistoryEntry<UserBaseDto> {
  @ApiProperty({ type: 'string', format: 'date-time', description: 'When it was recorded (ISO 8601, UTC)' })
  at!: string;
  @ApiProperty({
    type: UserBaseDto,
    nullable: true,
    description: 'Who did it; null for the system, or a user no longer in the organisation',
  })
  actor!: UserBaseDto | null;
  @ApiProperty({ type: 'string', example: 'ShiftBooked', description: 'The event’s name, without its context' })
  action!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The fields the event set, with the record’s field names and output shapes (a user as a UserBase); secrets never appear',
  })
  changes!: Record<string, unknown>;
}

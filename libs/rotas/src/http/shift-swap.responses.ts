import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { UserBaseDto } from '#app/identity';
import type { SwapView } from '../swap/shift-swap.queries.js';
import type { SwapStatus } from '../swap/shift-swap.js';
import { SWAP_STATUSES } from './shift-swap.dto.js';
import { ShiftDto } from './shift.responses.js';

/** The Swap record (docs/rota-domain.md#swaps). */
@ApiSchema({ name: 'ShiftSwap', description: 'A proposed exchange of two volunteers’ shifts' })
export class ShiftSwapDto implements SwapView {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1 }) id!: number;
  @ApiProperty({
    type: 'string',
    enum: [...SWAP_STATUSES],
    description:
      'expired: a shift started, was cancelled, changed its times or hands, or a volunteer could no longer book the shift they would gain',
  })
  status!: SwapStatus;
  @ApiProperty({ type: ShiftDto, description: 'The proposer’s shift, as it stands now (a cancelled one as it was)' })
  shift!: ShiftDto;
  @ApiProperty({ type: ShiftDto, description: 'The shift asked for, as it stands now (a cancelled one as it was)' })
  with!: ShiftDto;
  @ApiProperty({ type: UserBaseDto }) proposed_by!: UserBaseDto;
  @ApiProperty({ type: 'string', format: 'date-time' }) created_at!: string;
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'When it left proposed, whichever way; null while proposed',
  })
  decided_at!: string | null;
}

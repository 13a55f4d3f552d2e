import { ApiProperty } from '@nestjs/swagger';
import { IsDefined } from 'class-validator';
import { IdRef, IsReference, type PageRequest, parseListQuery, type RawQuery, ValidationError } from '#app/platform';
import type { SwapStatus } from '../swap/shift-swap.js';

export const SWAP_STATUSES: readonly SwapStatus[] = ['proposed', 'accepted', 'declined', 'withdrawn', 'expired'];

/** `POST /api/rota/shift-swaps`: the caller's shift and the shift they ask for in exchange. */
export class ProposeSwapBody {
  @ApiProperty({ type: IdRef, description: 'The caller’s own shift, offered' })
  @IsDefined()
  @IsReference()
  shift!: IdRef;

  @ApiProperty({ type: IdRef, description: 'Another volunteer’s shift, asked for in exchange' })
  @IsDefined()
  @IsReference()
  with!: IdRef;
}

/** `GET /api/rota/shift-swaps`: page and per_page (alias limit), and one `status` (an unknown one is a 422). */
export class SwapListQuery {
  readonly page!: PageRequest;
  readonly status?: SwapStatus;

  static fromQuery(query: RawQuery): SwapListQuery {
    const { page, perPage } = parseListQuery({ page: query.page, per_page: query.per_page, limit: query.limit });
    const status = query.status;
    if (status !== undefined && !SWAP_STATUSES.includes(status as SwapStatus))
      throw new ValidationError({ status: [`The status must be one of ${SWAP_STATUSES.join(', ')}.`] });
    return { page: { page, perPage }, ...(status !== undefined && { status: status as SwapStatus }) };
  }
}

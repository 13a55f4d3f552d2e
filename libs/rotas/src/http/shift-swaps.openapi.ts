import { ApiBearerAuth, ApiBody, ApiNoContentResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiDocs, ApiErrors, ApiIdParam, ApiListQuery, ApiPaginated } from '#app/platform';
import { ProposeSwapBody, SWAP_STATUSES } from './shift-swap.dto.js';
import { ShiftSwapDto } from './shift-swap.responses.js';

const EXPIRY =
  'A proposed swap expires as soon as either shift starts, is cancelled, changes its times or changes hands, or either volunteer could no longer ' +
  'book the shift they would gain (put on hold, no longer seeing its rota, the rota no longer self_manage). ';

/** What the OpenAPI document says of ShiftSwapsController (docs/rota-domain.md#swaps). */
export const ShiftSwapsDocs = {
  controller: () => ApiDocs(ApiTags('shifts'), ApiBearerAuth()),
  list: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'listShiftSwaps',
        summary: 'List shift swaps',
        description:
          'Addition. Permission: none: the swaps the caller proposed or was asked in, and, for a manager (manage-rotas or add-user-shifts), those with either shift on a ' +
          'rota they manage; newest first. status keeps one status (an unknown one is a 422). ' +
          EXPIRY,
      }),
      ApiListQuery(),
      ApiQuery({ name: 'status', required: false, schema: { type: 'string', enum: [...SWAP_STATUSES] } }),
      ApiPaginated(ShiftSwapDto),
      ApiErrors(400, 401, 406, 422),
    ),
  propose: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'proposeShiftSwap',
        summary: 'Propose a shift swap',
        description:
          'Addition. Permission: none, but only the volunteer of shift may propose (403 otherwise). Both shifts booked, not started, on self_manage rotas the caller sees, of two ' +
          'different volunteers: else a 422 naming shift or with (shift.id or with.id for an unknown or another organisation’s shift). The volunteer ' +
          'of with gets an e-mail whose subject begins "Swap proposed:".',
      }),
      ApiBody({ type: ProposeSwapBody }),
      ApiData(ShiftSwapDto, { status: 201, description: 'Proposed' }),
      ApiErrors(400, 401, 403, 406, 409, 413, 422),
    ),
  get: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getShiftSwap',
        summary: 'Get shift swap',
        description:
          'Addition. Permission: none: its proposer, its with volunteer (as proposed), or a manager (manage-rotas or add-user-shifts) of either rota; anyone else 403; another organisation’s: 404. ' +
          EXPIRY,
      }),
      ApiIdParam('id', 'Shift swap id'),
      ApiData(ShiftSwapDto),
      ApiErrors(401, 403, 404, 406),
    ),
  accept: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'acceptShiftSwap',
        summary: 'Accept a shift swap',
        description:
          'Addition. Permission: the volunteer of with, or a manager (manage-rotas or add-user-shifts) of both rotas (403 otherwise). A swap no longer proposed (expired included): 409. Each ' +
          'shift passes to the other volunteer, checked against booking rules 1–6 and 8 as that volunteer booking themself (rule 6 judged after the ' +
          'exchange: two shifts overlapping each other can be swapped); a failure is a 422 naming shift.<field> or with.<field> (the shift whose new ' +
          'volunteer fails) and nothing changes. Each volunteer gets one e-mail with a METHOD:REQUEST part for the shift gained and a METHOD:CANCEL ' +
          'part for the one given up. Against a concurrent withdrawal, decline or change of a shift exactly one wins; the others get a 409.',
      }),
      ApiIdParam('id', 'Shift swap id'),
      ApiData(ShiftSwapDto, { description: 'Accepted' }),
      ApiErrors(400, 401, 403, 404, 406, 409, 422),
    ),
  decline: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'declineShiftSwap',
        summary: 'Decline a shift swap',
        description:
          'Addition. Permission: none, but only the volunteer of with may decline (403 otherwise). A swap no longer proposed (expired included): 409.',
      }),
      ApiIdParam('id', 'Shift swap id'),
      ApiData(ShiftSwapDto, { description: 'Declined' }),
      ApiErrors(400, 401, 403, 404, 406, 409),
    ),
  withdraw: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'withdrawShiftSwap',
        summary: 'Withdraw a shift swap',
        description:
          'Addition. Permission: none, but only the proposer may withdraw (403 otherwise). A swap no longer proposed (expired included): 409.',
      }),
      ApiIdParam('id', 'Shift swap id'),
      ApiNoContentResponse({ description: 'Withdrawn; no body' }),
      ApiErrors(401, 403, 404, 406, 409),
    ),
};

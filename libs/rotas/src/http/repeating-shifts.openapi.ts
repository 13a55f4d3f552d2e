import { ApiBearerAuth, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiErrors, ApiIdParam, ApiDocs } from '#app/platform';
import { RepeatingShiftDto } from './repeating-shift.responses.js';

/** What the OpenAPI document says of RepeatingShiftsController: one composed decorator per route. */
export const RepeatingShiftsDocs = {
  controller: () => ApiDocs(ApiTags('shifts'), ApiBearerAuth()),
  get: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getRepeatingShift',
        summary: 'Get repeating shift',
        description:
          'Addition. Permission: none: a series on a rota the caller sees (403 otherwise); another organisation’s or unknown: 404. A cancelled, split or ' +
          'ended series keeps answering, with end_date set. skipped lists the occurrences the worker could not book, with the reason; generated_until ' +
          'is the last date it has considered.',
      }),
      ApiIdParam('id', 'Repeating shift id'),
      ApiData(RepeatingShiftDto),
      ApiErrors(401, 403, 404, 406),
    ),
  cancel: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'cancelRepeatingShift',
        summary: 'Cancel repeating shift',
        description:
          'Permission: the series’ user on a rota with self_manage, or a manager of the rota (manage-rotas or add-user-shifts over its team); anyone else ' +
          'who sees the rota gets a 403, and a series on a rota the caller does not see a 403; another organisation’s or unknown: 404. Every occurrence ' +
          'that has not started (and has no attendance recorded: such a one is left alone, as a started one is) is cancelled and the series ends today (end_date today in the organisation’s zone: nothing is booked after it). A ' +
          'volunteer’s own occurrence today stays when the rota’s allow_same_day_cancel is false, and an overnight one starting today always stays (rule 8; ' +
          'a manager can cancel it afterwards, on its own or by cancelling the series again). A series already ended keeps its end; cancelling it again ' +
          'cancels what is left, or changes nothing, and answers 204 either way.',
      }),
      ApiIdParam('id', 'Repeating shift id'),
      ApiNoContentResponse({ description: 'Cancelled; no body' }),
      ApiErrors(400, 401, 403, 404, 406, 409, { 409: 'The series or its shifts kept changing concurrently; retry.' }),
    ),
};

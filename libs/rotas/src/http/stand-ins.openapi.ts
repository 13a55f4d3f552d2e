import { ApiBearerAuth, ApiBody, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiDocs, ApiErrors, ApiIdParam } from '#app/platform';
import { StandInBody, TakeOverBody } from './shift.dto.js';
import { ShiftDto } from './shift.responses.js';

const ORDER = 'Refusals come in this order: 404, 403, 409, then the 422s.';

const WHO =
  'Permission: the shift’s volunteer on a self_manage rota, or a manager of the rota (manage-rotas or add-user-shifts over its team) for anyone’s shift on any ' +
  'rota; anyone else a 403 (a rota the caller does not see too). A shift of another organisation, unknown or cancelled is a 404. A shift that has ' +
  'started is a 422 naming start_datetime; rule 8 binds the volunteer as a cancel does (on today’s date only with allow_same_day_cancel, an overnight ' +
  'shift never on its start date: 422 naming start_datetime).';

/** What the OpenAPI document says of StandInsController: one composed decorator per route. */
export const StandInsDocs = {
  controller: () => ApiDocs(ApiTags('shifts'), ApiBearerAuth()),
  ask: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'askStandIn',
        summary: 'Ask for a stand-in',
        description:
          'The shift stays its volunteer’s (lists, views, feed, reminders, rules 6 and 7) until someone takes it over, but coverage leaves it out ' +
          '(hour entries, statuses, below_minimum, cover alerts). The first request sends the rota’s contacts one e-mail (subject “Stand-in wanted:”). ' +
          'Asking again replaces the note only (requested_at and requested_by stay) and sends nothing. ' +
          `${WHO} A note longer than 500 characters is a 422 naming note. ${ORDER}`,
      }),
      ApiIdParam('id', 'Shift id'),
      ApiBody({ type: StandInBody }),
      ApiData(ShiftDto, { description: 'The shift, with its stand_in request' }),
      ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, {
        409: 'The shift was changed by a concurrent request; retry.',
      }),
    ),
  withdraw: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'withdrawStandIn',
        summary: 'Withdraw a stand-in request',
        description: `The shift counts for coverage again. ${WHO} No open request: 409. ${ORDER}`,
      }),
      ApiIdParam('id', 'Shift id'),
      ApiNoContentResponse({ description: 'Withdrawn; no body' }),
      ApiErrors(400, 401, 403, 404, 406, 409, 422, {
        409: 'The shift has no open stand-in request (never asked, withdrawn, or taken over), or a concurrent request changed it.',
      }),
    ),
  takeOver: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'takeOverShift',
        summary: 'Take over a shift',
        description:
          'Permission: the taker themself on a self_manage rota, or a manager of the rota for anyone. ' +
          'The shift (same id, times and rota) passes to the taker: `user` (default the caller; naming someone else, or ignore_on_hold / ' +
          'confirm_role_restriction, needs a manager of the rota, else 403). A volunteer takes over for themself only on a self_manage rota (else 403). ' +
          'The taker must pass booking rules 1–6 and 8 on the shift’s times as if booking (themself, or by that manager); rule 7 is not applied, the ' +
          'place being handed over. The shift leaves its series (recurrence_pattern null; the series never books that date again) and its stand-in ' +
          'request is closed. A shift not looking for a stand-in (never asked, withdrawn, already taken over) is a 409; the taker being its volunteer ' +
          'a 422 naming user; a shift that has started a 422 naming start_datetime. Two takers at once: one 200, the other 409. The previous volunteer ' +
          'gets one e-mail (subject “Stand-in found:”, METHOD:CANCEL calendar part); a taker booked by a manager gets the usual booking e-mail. ' +
          `A shift of another organisation, unknown or cancelled is a 404; one on a rota the caller does not see a 403. ${ORDER}`,
      }),
      ApiIdParam('id', 'Shift id'),
      ApiBody({ type: TakeOverBody }),
      ApiData(ShiftDto, { description: 'The shift, now the taker’s' }),
      ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, {
        409: 'The shift is not looking for a stand-in (or another taker got there first).',
      }),
    ),
};

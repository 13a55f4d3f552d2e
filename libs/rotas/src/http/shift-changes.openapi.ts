import { ApiBearerAuth, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiErrors, ApiIdParam, ApiDocs } from '#app/platform';
import { ShiftDto } from './shift.responses.js';
import { BOOKING_RULES } from './shifts.openapi.js';

const BEFORE =
  'A shift of another organisation, unknown or cancelled is a 404; one on a rota the caller does not see a 403; another user’s shift without being a manager ' +
  '(manage-rotas or add-user-shifts over the rota’s team) a 403; one’s own on a rota without self_manage, unless a manager, a 403.';

/** What the OpenAPI document says of ShiftChangesController: one composed decorator per route. */
export const ShiftChangesDocs = {
  controller: () => ApiDocs(ApiTags('shifts'), ApiBearerAuth()),
  update: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'updateShift',
        summary: 'Update shift',
        description:
          `Permission: as booking. ${BEFORE} The new times are checked as a booking (the rules below, the shift itself left out; rule 8 on its current ` +
          'date and on its new one). Rules 4 and 5 bind an edit as they bind a create: a manager moving the shift of a user on hold, or of a user without ' +
          'an allowed role on a restricted rota, sends ignore_on_hold / confirm_role_restriction (additions to ' +
          `the spec’s update body); a volunteer cannot override them. ${BOOKING_RULES} ` +
          'edit_mode single: this shift only; it leaves its series (recurrence_pattern null afterwards); a non-null recurrence_pattern is a 422 naming it. ' +
          'edit_mode recurring, on a shift of a series: its date cannot change (422 naming start_datetime); this and every later occurrence of the series ' +
          'that has not started take the new times of day, each on its own date (occurrences edited on their own earlier have left the series and are left ' +
          'alone), and the series’ future occurrences are generated at them. A later occurrence that no longer fits its rota day at the new times (no ' +
          'timeslot holds it, or the time does not exist that day) is cancelled (reason outside_timeslot, or the rota’s reason); one that would overlap ' +
          'another shift of the user refuses the request (422 naming start_datetime and the date). With a recurrence_pattern different from the series’, ' +
          'the series splits: the old one ends the day before this shift (its later occurrences cancelled) and a new one starts with this shift, the ' +
          'worker booking its occurrences, except on the dates the old series had left without an occurrence (cancelled or edited alone: skipped as ' +
          'series_exception). recurrence_pattern null ends the series at this shift (later occurrences cancelled). edit_mode recurring with ' +
          'a recurrence_pattern on a shift of no series makes it the first occurrence of a new series; without one it is a single edit. Nothing changed: ' +
          'nothing is recorded. Attendance recorded on the shift stays as it is (its worked times do not move); later occurrences with attendance recorded ' +
          'are left alone, as started ones are.',
      }),
      ApiIdParam('id', 'Shift id'),
      ApiData(ShiftDto, { description: 'The shift as it now is' }),
      ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, { 409: 'Concurrent changes kept winning the race; retry.' }),
    ),
  cancel: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'cancelShift',
        summary: 'Cancel shift',
        description:
          `Permission: as booking. ${BEFORE} Only this shift is cancelled, also in a series (its series never books that date again; DELETE ` +
          '/api/rota/repeating-shifts/{id} cancels the series). Rule 8 binds a volunteer cancelling their own shift: not started, on today’s date only ' +
          'with the rota’s allow_same_day_cancel, an overnight shift never on its start date (422 naming start_datetime). Managers are not bound by it. ' +
          'A shift with attendance recorded (PUT /api/rota/shifts/{id}/attendance) is a 409 until the attendance is cleared (status null).',
      }),
      ApiIdParam('id', 'Shift id'),
      ApiNoContentResponse({ description: 'Cancelled; no body' }),
      ApiErrors(400, 401, 403, 404, 406, 409, 422, {
        409: 'Attendance is recorded for the shift (clear it first), or the shift was changed by a concurrent request (retry).',
      }),
    ),
};

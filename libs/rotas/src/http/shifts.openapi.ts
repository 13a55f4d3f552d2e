import {
  ApiBearerAuth,
  ApiBody,
  ApiExtraModels,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  ApiBooleanQuery,
  ApiData,
  ApiErrors,
  ApiIdListQuery,
  ApiIdParam,
  ApiListQuery,
  ApiPaginated,
  IdRef,
  ApiDocs,
} from '#app/platform';
import { AttendanceBody, CREATE_SHIFTS_BODY_SCHEMA, CreateShiftItem } from './shift.dto.js';
import { ShiftDto } from './shift.responses.js';

export const BOOKING_RULES =
  'The booking rules (docs/rota-domain.md#booking-rules), checked in this order, each failure a 422 naming the field: ' +
  '1 the rota is active that date and not closed (rota); ' +
  '2 the shift lies inside one timeslot of that date, or covers it exactly when require_full_timeslot (start_datetime); 3 the user belongs to the ' +
  'organisation and sees the rota (user); 4 the user is not on hold, unless ignore_on_hold and the caller is a manager (user); 5 on a restricted_by_role ' +
  'rota the user holds an allowed role profile, unless confirm_role_restriction and the caller is a manager (user); 6 the user has no other shift ' +
  'overlapping it on any rota (start_datetime); 7 a volunteer booking themselves keeps the timeslot at or under max at every moment (start_datetime); ' +
  '8 a volunteer acting on their own shift: not in the past, on today’s date only with the rota’s allow_same_day_* flag, an overnight shift never on ' +
  'its start date (start_datetime). Managers (manage-rotas or add-user-shifts over the rota’s team) are not bound by 7 and 8. Before the rules: a rota ' +
  'of another organisation or unknown is a 404; one the caller does not see a 403; another user’s shift without being a manager a 403; one’s own on a ' +
  'rota without self_manage, unless a manager, a 403. Concurrent bookings are serialised: the loser of the last place, or of an overlap, gets the 422.';

/** What the OpenAPI document says of ShiftsController: one composed decorator per route. */
export const ShiftsDocs = {
  controller: () => ApiDocs(ApiTags('shifts'), ApiBearerAuth(), ApiExtraModels(IdRef, CreateShiftItem, ShiftDto)),
  list: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'listShifts',
        summary: 'List shifts',
        description:
          'Permission: none: booked shifts on rotas the caller sees (teams and rotas outside it are simply left out), ordered by start then id. ' +
          'start_date (default today in the organisation’s zone) and end_date (default 31 days after start_date) are local dates, both inclusive, a shift ' +
          'belonging to the date it starts on; end_date before start_date or more than 365 days after it is a 422 naming end_date.',
      }),
      ApiListQuery(),
      ApiIdListQuery('teams', 'Comma-separated team ids'),
      ApiIdListQuery('rotas', 'Comma-separated rota ids'),
      ApiIdListQuery('users', 'Comma-separated user ids'),
      ApiQuery({
        name: 'start_date',
        required: false,
        schema: { type: 'string', format: 'date' },
        description: 'First local date (default today)',
      }),
      ApiQuery({
        name: 'end_date',
        required: false,
        schema: { type: 'string', format: 'date' },
        description: 'Last local date (default start_date + 31 days; at most 365 days after it)',
      }),
      ApiBooleanQuery(
        'stand_in',
        'true: only shifts looking for a stand-in (any volunteer’s, on rotas the caller sees); false: only those not',
      ),
      ApiPaginated(ShiftDto),
      ApiErrors(400, 401, 406, 422),
    ),
  create: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'bookShift',
        summary: 'Create shift (one, or a bulk)',
        description:
          'Permission: as the rules below. One shift (201 `{ data: Shift }`) or `{ shifts: [...] }` (1–100, all or nothing, 201 `{ data: [Shift, ...] }`; ' +
          'errors keyed shifts.N.field; shifts of one request must not overlap for one user, and they count towards the same timeslots). ' +
          `${BOOKING_RULES} With a recurrence_pattern, this shift is the first occurrence: the worker books the others up to six calendar months ahead ` +
          '(or the end_date), checked as for a manager, skipping those that cannot be booked (GET /api/rota/repeating-shifts/{id} lists them).',
      }),
      ApiBody({ schema: CREATE_SHIFTS_BODY_SCHEMA }),
      ApiResponse({
        status: 201,
        description: 'The booked shift; a bulk answers `{ data: [Shift, ...] }` in the order sent',
        schema: {
          type: 'object',
          required: ['data'],
          properties: {
            data: {
              oneOf: [{ $ref: getSchemaPath(ShiftDto) }, { type: 'array', items: { $ref: getSchemaPath(ShiftDto) } }],
            },
          },
        },
      }),
      ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, {
        409: 'Only when the write kept losing to concurrent writes after the store’s retries (bookings of one rota-day queue rather than fail); retry.',
      }),
    ),
  get: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getShift',
        summary: 'Get shift',
        description:
          'Permission: none: a booked shift on a rota the caller sees (403 otherwise); another organisation’s, unknown or cancelled: 404.',
      }),
      ApiIdParam('id', 'Shift id'),
      ApiData(ShiftDto),
      ApiErrors(401, 403, 404, 406),
    ),
  attendance: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'recordAttendance',
        summary: 'Record attendance',
        description:
          'Our addition (docs/rota-domain.md#attendance). Records what happened on a booked shift: status attended (with the times actually ' +
          'worked, start_datetime and end_datetime, each defaulting to the shift’s own; shapes as for shifts), no_show (the shift’s own times, ' +
          'minutes 0) or null (clears what was recorded; nothing recorded: nothing changes, 200). note: at most 1,000 characters, null when absent. ' +
          'Permission: a manager of the rota (manage-rotas or add-user-shifts over its team) records, changes or clears attendance of any shift ' +
          'that has started (one that has not: 422 naming status; clearing is allowed at any time). The shift’s own volunteer may check in ' +
          '(status attended only) from 15 minutes before the shift starts until it ends, on a rota with self_manage only (outside that window: ' +
          '422 naming status; the allow_same_day_* flags do not bind a check-in, nor does being on hold); a no_show, a clear, or a change of what a manager recorded ' +
          'is a 403 for them, as is their own shift on a rota without self_manage. Anyone else: 403; a rota the caller does not see: 403; a ' +
          'shift of another organisation, unknown or cancelled: 404. Checked in this order: the body’s shape and the worked times’ formats ' +
          '(422: status missing or not one of the three, a time malformed or in the spring gap, a note too long), then the 404 / 403s, then ' +
          'the rules: the worked start within 12 real hours of the shift’s start (422 naming start_datetime), the worked end within 12 real ' +
          'hours of the shift’s end and after the worked start (422 naming end_datetime). minutes: the whole real minutes between the worked ' +
          'times. The record appears in the Shift’s attendance and in its history; moving the shift keeps it as it is (the worked times do ' +
          'not move); cancelling the shift is a 409 while it is recorded, and a series cancel or a rota change leaves the shift alone, as it ' +
          'leaves a started one. The same record again changes nothing.',
      }),
      ApiIdParam('id', 'Shift id'),
      ApiBody({ type: AttendanceBody }),
      ApiData(ShiftDto, { description: 'The shift, its attendance as now recorded' }),
      ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, {
        409: 'The shift was changed by a concurrent request; retry.',
      }),
    ),
};

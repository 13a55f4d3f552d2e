import { ApiBearerAuth, ApiExtraModels, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HistoryEntryDto, UserBaseDto } from '#app/identity';
import { ApiErrors, ApiIdParam, ApiListQuery, ApiPaginated, ApiDocs } from '#app/platform';

const ENTRIES =
  'Its events, oldest first, in the pagination envelope: at (ISO 8601), actor (a UserBase; null for the system), action (the event’s name) and changes ' +
  '(the fields it set, with the record’s field names and output shapes).';

/** What the OpenAPI document says of RotasHistoryController: one composed decorator per route. */
export const RotasHistoryDocs = {
  controller: () => ApiDocs(ApiBearerAuth(), ApiExtraModels(UserBaseDto)),
  shift: () =>
    ApiDocs(
      ApiTags('shifts'),
      ApiOperation({
        operationId: 'listShiftHistory',
        summary: 'Shift history',
        description:
          'Addition. Permission: as GET /api/rota/shifts/{id}: a booked shift on a rota the caller sees (403 ' +
          `otherwise); another organisation’s, unknown or cancelled: 404. ${ENTRIES} ` +
          'Actions: ShiftBooked (user, rota_id, date, start_time, start_datetime, end_time, end_datetime, recurrence_pattern as { id } or null), ShiftMoved ' +
          '(the new date and times), ShiftSeriesChanged (recurrence_pattern), ShiftCancelled (reason).',
      }),
      ApiIdParam('id', 'Shift id'),
      ApiListQuery(),
      ApiPaginated(HistoryEntryDto),
      ApiErrors(400, 401, 403, 404, 406, 422),
    ),
  rota: () =>
    ApiDocs(
      ApiTags('rotas'),
      ApiOperation({
        operationId: 'listRotaHistory',
        summary: 'Rota history',
        description:
          'Addition. Permission: none beyond seeing the rota (a role in its team or a team above it; 403 ' +
          `otherwise); another organisation’s or unknown: 404. ${ENTRIES} ` +
          'Actions: RotaCreated, RotaChanged (the settings changed), RotaTimeslotsChanged and RotaPatternReplaced (from, to, timeslots), RotaEnded (end), ' +
          'RotaClosed and RotaReopened (dates), RotaArchived, RotaContactAdded and RotaContactRemoved (contact, as the contacts list shows it).',
      }),
      ApiIdParam('id', 'Rota id'),
      ApiListQuery(),
      ApiPaginated(HistoryEntryDto),
      ApiErrors(400, 401, 403, 404, 406, 422),
    ),
};

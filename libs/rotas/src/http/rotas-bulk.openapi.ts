import { ApiBearerAuth, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiDocs } from '#app/platform';
import { LEFT_OUTSIDE } from './rotas.openapi.js';

const RACE_409 =
  'A listed rota is archived (where the action refuses archived rotas), or a concurrent change of one of the rotas won the race; nothing was changed.';

/** What the OpenAPI document says of RotasBulkController: one composed decorator per route. */
export const RotasBulkDocs = {
  controller: () => ApiDocs(ApiTags('rotas'), ApiBearerAuth()),
  bulk: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'applyRotaBulkAction',
        summary: 'Bulk action',
        description:
          'Permission: manage-rotas; every rota in rota_ids must be one the caller manages (manage-rotas over ' +
          'its team): an unknown id, another organisation’s rota or one ' +
          'outside the caller’s reach is a 422 naming rota_ids and listing the ids. All or nothing: any ' +
          'refusal changes no rota. rota_ids: 1–500 ids (counted as sent; ' +
          'a repeated id is acted on once). Actions and their data: end_date {date} (today or later in the ' +
          'organisation’s zone, not before a rota’s start; archived ' +
          'rotas are skipped); name {name} (1–255 characters); close {dates} (1–366 dates, each today or ' +
          'later; the rota is closed on them); reopen {dates} (addition: ' +
          'lifts closures, same limits; shifts cancelled by the close stay cancelled); archive_rotas (no data; ' +
          'a rota archived already is left as it is); add_contacts ' +
          '{user_ids} (1–50 users of the organisation; needs the organisation’s rota_v2 feature, else a 422 ' +
          'naming action; users who are contacts already stay as they are). ' +
          'data holds only the action’s fields (another field is a 422 naming it). Except for end_date and ' +
          'archive_rotas, an archived rota among rota_ids is a 409. ' +
          'A change that changes nothing (same name, dates closed already, same end date) records nothing. ' +
          'For end_date, close and archive_rotas (whose rotas’ repeating shifts also end): ' +
          LEFT_OUTSIDE,
      }),
      ApiNoContentResponse({ description: 'Done for every listed rota; no body' }),
      ApiErrors(400, 401, 403, 406, 409, 413, 422, { 409: RACE_409 }),
    ),
  replace: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'replaceRotas',
        summary: 'Replace rotas with a shift pattern',
        description:
          'Permission: manage-rotas; every rota in replace_rotas must be one the caller manages (else a 422 ' +
          'naming replace_rotas and listing the ids). Each rota gets ' +
          'the pattern’s timeslots (with new ids) over [start_date, end_date] exactly as an update of ' +
          'timeslots would: start_date today or later; end_date absent or ' +
          'null replaces everything from start_date on (later versions dropped), given it must not be before ' +
          'start_date and what stood after it stands again. The ' +
          'pattern becomes the rota’s pattern; name (absent or null: unchanged) renames every rota. A rota’s ' +
          'own start and end do not move (timeslots written outside ' +
          'them count only where the rota is active). pattern_id: a shift pattern of the organisation that is not archived (else a 422 naming pattern_id). ' +
          'All or nothing; an archived rota among replace_rotas is a 409. ' +
          LEFT_OUTSIDE,
      }),
      ApiNoContentResponse({ description: 'Replaced for every listed rota; no body' }),
      ApiErrors(400, 401, 403, 406, 409, 413, 422, { 409: RACE_409 }),
    ),
};

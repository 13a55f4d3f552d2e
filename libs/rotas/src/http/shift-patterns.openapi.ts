import { ApiBearerAuth, ApiNoContentResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  ApiBooleanQuery,
  ApiData,
  ApiErrors,
  ApiIdListQuery,
  ApiIdParam,
  ApiIncludeQuery,
  ApiListQuery,
  ApiPaginated,
  ApiDocs,
} from '#app/platform';
import { SHIFT_PATTERN_INCLUDES } from '../shift-pattern/shift-pattern.queries.js';
import { SHIFT_PATTERN_LIST_SPEC } from './shift-pattern.dto.js';
import { ShiftPatternDto } from './shift-pattern.responses.js';

const PERMISSION =
  'Permission: manage-rotas (403 without it, whatever the id). Patterns belong to the organisation, not to a team.';

/** What the OpenAPI document says of ShiftPatternsController: one composed decorator per route. */
export const ShiftPatternsDocs = {
  controller: () => ApiDocs(ApiTags('shift patterns'), ApiBearerAuth()),
  list: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'listShiftPatterns',
        summary: 'List shift patterns',
        description:
          `${PERMISSION} Archived patterns are left out; archived=true lists only them. q: a case-insensitive part of the name. ` +
          'teams: only patterns used by a non-archived rota of those teams (teams the caller does not see are left out). ' +
          's: created_at (default), name (case-insensitive), teams (the name of the first team, by name, whose non-archived rota uses the pattern; ' +
          'patterns no such team uses come last in either direction); o: desc by default; ties by id in the same direction. ' +
          'include: pattern, category, teams, rotas (teams and rotas: non-archived rotas of teams the caller sees). ' +
          'created_at, updated_at and deleted_at are YYYY-MM-DD HH:MM:SS in the organisation’s zone.',
      }),
      ApiListQuery(SHIFT_PATTERN_LIST_SPEC),
      ApiQuery({
        name: 'q',
        required: false,
        description: 'A case-insensitive part of the name',
        schema: { type: 'string' },
      }),
      ApiBooleanQuery('archived', 'true/1: only archived patterns; false/0 (default): only the others'),
      ApiIdListQuery('teams', 'Comma-separated team ids: patterns used by a non-archived rota of those teams'),
      ApiPaginated(ShiftPatternDto),
      ApiErrors(400, 401, 403, 406, 422),
    ),
  create: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'createShiftPattern',
        summary: 'Create shift pattern',
        description:
          `${PERMISSION} name: 1–255 characters. min, ideal, max: integers ≥ 0 with min ≤ ideal ≤ max and max ≥ 1; each optional (not null): ` +
          'one left out defaults to 1, moved only as far as the numbers given need (only max 5 gives 1/1/5, only min 3 gives 3/3/3). ' +
          'A timeslot that leaves a number out (or sends null) takes the pattern’s. category: { id } of an activity category of the organisation ' +
          '(else a 422 on category.id; a malformed one on category), or null/absent for none. pattern: 1–200 timeslots, each ending at the first ' +
          'weekday_end end_time after its start (equal start and end is a 422), none overlapping another, the wrap-around from Sunday to Monday included. ' +
          'Every broken rule is named in one 422 (keys like pattern.3.max; items counted from 0). The timeslots get ids and are kept in week order. ' +
          'Answers the pattern with its pattern (timeslots).',
      }),
      ApiData(ShiftPatternDto, { status: 201, description: 'The new pattern, with pattern included' }),
      ApiErrors(400, 401, 403, 406, 413, 422),
    ),
  get: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getShiftPattern',
        summary: 'Get shift pattern',
        description:
          `${PERMISSION} An archived pattern is still answered (deleted_at set); another organisation’s or an ` +
          'unknown id is a 404. include as the list.',
      }),
      ApiIdParam('id', 'Shift pattern id'),
      ApiIncludeQuery(SHIFT_PATTERN_INCLUDES),
      ApiData(ShiftPatternDto),
      ApiErrors(400, 401, 403, 404, 406, 422),
    ),
  archive: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'archiveShiftPattern',
        summary: 'Archive shift pattern (addition)',
        description:
          `${PERMISSION} Sets deleted_at: the pattern leaves the default list and cannot be used for new rotas or replace (422 on pattern_id); ` +
          'rotas made from it keep running (a rota copies its timeslots when it is made). Archiving an archived pattern is a 204 that changes nothing ' +
          '(deleted_at stays the first archive’s). Another organisation’s pattern or an unknown id is a 404.',
      }),
      ApiIdParam('id', 'Shift pattern id'),
      ApiNoContentResponse({ description: 'Archived; no body' }),
      ApiErrors(400, 401, 403, 404, 406, 409, { 409: 'A concurrent change of the pattern won the race.' }),
    ),
};

import { ApiBearerAuth, ApiExtraModels, ApiNoContentResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  ApiBooleanQuery,
  ApiData,
  ApiErrors,
  ApiIdListQuery,
  ApiIdParam,
  ApiIncludeQuery,
  IdRef,
  ApiDocs,
} from '#app/platform';
import { ROTA_INCLUDES, ROTA_SORTS } from '../rota/rota.queries.js';
import { RotaDto, RotaSummaryDto, RotaTeamEntryDto } from './rota.responses.js';

/** What a change of a rota's calendar does to the shifts it leaves outside (docs/rota-domain.md#shifts-that-no-longer-fit). */
export const LEFT_OUTSIDE =
  'Booked shifts that have not started and no longer fit (outside every timeslot, on a closed day, after the end) are cancelled with a ' +
  'reason in the same write: when the answer arrives each is a 404 and gone from every view, list and feed, and its repeating shift books ' +
  'nothing there again; only the e-mails follow, from the worker. A shift with attendance recorded is left alone, as a started one is.';

const ARCHIVED_409 =
  'The rota is archived (an archived rota refuses every change), or a concurrent change of the rota won the race.';

/** What the OpenAPI document says of RotasController: one composed decorator per route. */
export const RotasDocs = {
  controller: () => ApiDocs(ApiTags('rotas'), ApiBearerAuth(), ApiExtraModels(IdRef)),
  list: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'listRotas',
        summary: 'List rotas',
        description:
          'Permission: none: the rotas the caller sees (a role in the rota’s team or a team above it), for everyone; `{ data: [...] }`, not paged. ' +
          'archived: false (default) lists the rotas that are not archived, true only the archived ones. teams: comma-separated team ids; teams the caller ' +
          'does not see are simply left out. s: rota_title, start_date, end_date (an open-ended rota sorts after every date), team_name (default); ' +
          'o: asc or desc (default desc; a and d are read too); names compare case-insensitively; ties by id in the same direction. include: team, ' +
          'permissions (for the caller), contacts (in the order added; can_manage through any permission the caller holds).',
      }),
      ApiIncludeQuery(ROTA_INCLUDES),
      ApiBooleanQuery('archived', 'true: only archived rotas; false or absent: only rotas that are not archived'),
      ApiIdListQuery('teams', 'Comma-separated team ids: only rotas of these teams'),
      ApiQuery({
        name: 's',
        required: false,
        description: 'Sort column',
        schema: { type: 'string', enum: [...ROTA_SORTS], default: 'team_name' },
      }),
      ApiQuery({
        name: 'o',
        required: false,
        description: 'Direction: asc or desc (a and d are read too)',
        schema: { type: 'string', enum: ['asc', 'desc', 'a', 'd'], default: 'desc' },
      }),
      ApiData(RotaDto, { isArray: true, description: 'The rotas, sorted' }),
      ApiErrors(400, 401, 406, 422),
    ),
  create: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'createRota',
        summary: 'Create rota',
        description:
          'Permission: manage-rotas over each team of `team` (a team of the organisation outside the caller’s reach, unknown, of another organisation or ' +
          'listed twice is a 422 naming team.N.id, or team.N for a bare id). One rota per team, answered in the order of `team`, all or nothing. ' +
          'Defaults: self_manage false, allow_same_day_add true, allow_same_day_cancel and allow_same_day_edit false, restricted_by_role false, ' +
          'require_full_timeslot false, colour from a fixed palette (by rota id). end_date null or not before start_date (422 end_date); the pattern ' +
          'one of the organisation’s and not archived (422 pattern_id); role_profiles required when restricted_by_role (422 role_profiles) and each the ' +
          'organisation’s (422 role_profiles.N); contacts users of the organisation (422 contacts.N). The pattern’s timeslots are copied with new ids. ' +
          'One rota per team per day: a team rota running on start_date (not archived) ends the day before, in the same change; a team rota (not ' +
          'archived) starting on or after start_date is a clash (422 naming team); the running rota’s shifts after its new end are cancelled ' +
          '(below). Two creates for one team at once: one of them gets the 409. The answer is each rota without includes. ' +
          LEFT_OUTSIDE,
      }),
      ApiData(RotaDto, {
        status: 201,
        isArray: true,
        description: 'The new rotas, one per team, in the order of `team`',
      }),
      ApiErrors(400, 401, 403, 406, 409, 413, 422, {
        409: 'A concurrent create for a team of the body (or change of a rota it ends) won the race.',
      }),
    ),
  update: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'updateRota',
        summary: 'Update rota',
        description:
          'Permission: manage-rotas over the rota’s team (an unknown rota or another organisation’s is a 404; one the caller does not see or manage a 403). ' +
          'Absent or null leaves a field as it is. contacts replaces the contact set ([] removes every contact). Additions: restricted_by_role and ' +
          'require_full_timeslot; a rota restricted by role after the change needs role profiles (422 role_profiles). The end date changes through the bulk ' +
          'end_date action and the timeslots through PUT /api/rotas/{id}/timeslots (a start_date or end_date here is a 422). An archived rota refuses every ' +
          'change (409). Nothing different: nothing recorded.',
      }),
      ApiIdParam('id', 'Rota id'),
      ApiData(RotaSummaryDto, { description: 'The rota after the change' }),
      ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, { 409: ARCHIVED_409 }),
    ),
  timeslots: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'updateRotaTimeslots',
        summary: 'Update timeslots',
        description:
          'Permission: manage-rotas over the rota’s team (an unknown rota or another organisation’s is a 404; one the caller does not see or manage a 403). ' +
          'Writes the weekdays’ timeslots over [from, to]: from today (the organisation’s zone) or later (422 from); to not before from (422 to); to ' +
          'absent or null: from `from` on, every later version replaced; to given: what stood after `to` stands again, with its timeslot ids. A weekday ' +
          'omitted, null or empty has no timeslots: the rota is closed that weekday in the range. Each timeslot gets a new id. Timeslot errors are keyed ' +
          'weekdays.<day>.<n>.<field>. An archived rota refuses it (409). The range may reach outside the rota’s own dates; only active days count. ' +
          LEFT_OUTSIDE,
      }),
      ApiIdParam('id', 'Rota id'),
      ApiNoContentResponse({ description: 'Written' }),
      ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, { 409: ARCHIVED_409 }),
    ),
};

/** What the OpenAPI document says of RotaTeamsController: one composed decorator per route. */
export const RotaTeamsDocs = {
  controller: () => ApiDocs(ApiTags('rotas'), ApiBearerAuth()),
  byTeam: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'listRotasByTeam',
        summary: 'Rotas by team',
        description:
          'Permission: none: the teams the caller sees (a role in the team or a team above it) that have a rota, not archived, active (start to end ' +
          'inclusive) on active_on, or on at least one day of active_between (both ends inclusive), or any such rota when neither is given; both given: ' +
          'active on active_on, which must lie in active_between. Each team with those rotas only. Teams by name (case-insensitive), then id; each ' +
          'team’s rotas by name, then id. No rota status. A malformed active_on or active_between (or its second date before its first) is a 422.',
      }),
      ApiQuery({
        name: 'active_on',
        required: false,
        description: 'Only rotas active on this date',
        schema: { type: 'string', format: 'date' },
      }),
      ApiQuery({
        name: 'active_between',
        required: false,
        description:
          'Two dates joined by a comma, YYYY-MM-DD,YYYY-MM-DD (both inclusive): only rotas active on at least one day of it',
        schema: {
          type: 'string',
          pattern: '^\\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\\s*,\\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\\s*$',
          example: '2027-01-01,2027-01-31',
        },
      }),
      ApiData(RotaTeamEntryDto, { isArray: true, description: 'The teams, each with its matching rotas' }),
      ApiErrors(400, 401, 406, 422),
    ),
};

import { ApiBearerAuth, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiErrors, ApiIdParam, ApiDocs } from '#app/platform';
import { ContactDto, ContactValidationDto } from './contact.responses.js';

const ARCHIVED_409 =
  'The rota is archived (an archived rota refuses every change), or a concurrent change of the rota won the race twice.';

/** What the OpenAPI document says of RotaContactsController: one composed decorator per route. */
export const RotaContactsDocs = {
  controller: () => ApiDocs(ApiTags('rotas'), ApiBearerAuth()),
  validate: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'validateRotaContacts',
        summary: 'Validate contacts',
        description:
          'Permission: manage-rotas. Advisory: writes nothing. For each of user_ids (at most 50), the targets ' +
          'it cannot see: the rotas of rota_ids (at most 500; a rota ' +
          'is seen when its team is: a role in the team or a team above it) or the teams of team_ids (at most ' +
          '100). Exactly one of rota_ids and team_ids (both or ' +
          'neither: a 422 naming both; null counts as absent, an empty list as given). missing_permission: the ' +
          'user holds neither add-user-shifts nor manage-rotas. ' +
          'A user is a failure when either holds; valid means no failures. Users and targets in the order ' +
          'sent, each once. Unknown ids are a 422 naming their list ' +
          '(users: of another organisation or none; rotas and teams: of another organisation, none, or outside ' +
          'the caller’s manage-rotas reach; each listed once); ' +
          'lists over their limits (counted as sent) a 422 naming them.',
      }),
      ApiData(ContactValidationDto, { description: 'The verdict' }),
      ApiErrors(400, 401, 403, 406, 413, 422),
    ),
  list: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'listRotaContacts',
        summary: 'List contacts of a rota',
        description:
          'Permission: none beyond seeing the rota (a role in its team or a team above it); a rota of another ' +
          'organisation or an unknown id is a 404, one the ' +
          'hierarchy hides a 403. In the order they were added; a user’s can_manage is judged through any permission the caller holds.',
      }),
      ApiIdParam('rota', 'Rota id'),
      ApiData(ContactDto, { isArray: true, description: 'The rota’s contacts (possibly none)' }),
      ApiErrors(400, 401, 403, 404, 406),
    ),
  add: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'addRotaContact',
        summary: 'Add contact',
        description:
          'Permission: manage-rotas over the rota’s team (a rota of another organisation or an unknown id is a ' +
          '404; one the caller does not see or manage a 403). ' +
          'user_id must be a user of the organisation (else a 422 naming user_id). A user who is a contact ' +
          'already: 200 with the existing record, nothing changed ' +
          '(also when two requests add the same user at once: the one that loses the race on the rota answers ' +
          'the winner’s record). New: 201. An archived rota ' +
          'refuses new contacts (409).',
      }),
      ApiIdParam('rota', 'Rota id'),
      ApiData(ContactDto, { status: 201, description: 'Added' }),
      ApiData(ContactDto, { status: 200, description: 'The user is a contact already: the existing record' }),
      ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, { 409: ARCHIVED_409 }),
    ),
  remove: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'removeRotaContact',
        summary: 'Remove rota contact',
        description:
          'Addition. Permission: manage-rotas over the rota’s team (a rota of another organisation or an ' +
          'unknown id is a 404; one the caller does not see or manage ' +
          'a 403). {id} is the contact record’s id; one that is no contact of this rota is a 404. An archived rota refuses it (409).',
      }),
      ApiIdParam('rota', 'Rota id'),
      ApiIdParam('id', 'Contact record id'),
      ApiNoContentResponse({ description: 'Removed; no body' }),
      ApiErrors(400, 401, 403, 404, 406, 409, { 409: ARCHIVED_409 }),
    ),
};

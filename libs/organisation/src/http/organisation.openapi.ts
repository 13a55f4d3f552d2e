import { ApiBearerAuth, ApiBody, ApiExtraModels, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiErrors, ApiListQuery, ApiPaginated, ApiDocs } from '#app/platform';
import {
  ORGANISATION_MODELS,
  OrganisationBasicDto,
  OrganisationChangeDto,
  OrganisationDetailedDto,
  updateBodySchema,
} from './openapi-schemas.js';

/** What the OpenAPI document says of OrganisationController: one composed decorator per route. */
export const OrganisationDocs = {
  controller: () => ApiDocs(ApiTags('organisation'), ApiBearerAuth(), ApiExtraModels(...ORGANISATION_MODELS)),
  basic: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getOrganisation',
        summary: 'Get basic organisation',
        description: 'Permission: any logged-in user of the organisation.',
      }),
      ApiData(OrganisationBasicDto),
      ApiErrors(400, 401, 406),
    ),
  detailed: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getDetailedOrganisation',
        summary: 'Get detailed organisation',
        description:
          'Permission: any logged-in user; the answer holds the basic fields plus those the caller’s ' +
          'permissions reach (manage-organisation, manage-integrations, edit-expense-settings, manage-rotas). ' +
          'Secrets never appear; their *_set flags do, for whoever may set them.',
      }),
      ApiData(OrganisationDetailedDto),
      ApiErrors(400, 401, 406),
    ),
  update: () =>
    ApiDocs(
      ApiBody({ schema: updateBodySchema }),
      ApiOperation({
        operationId: 'updateOrganisation',
        summary: 'Update organisation',
        description:
          'Permission: each field names its own (manage-organisation, manage-integrations, ' +
          'edit-expense-settings, manage-rotas); fields the caller may not change are a 403 naming them. ' +
          'Unknown and read-only fields (slug, timezone, web_url, api_url, forum_url, *_set) are a 422. An ' +
          'image field names a file of the organisation (404 otherwise) the caller may read (403) ' +
          'that is an image (422). Answers the detailed view. An update that changes nothing records nothing.',
      }),
      ApiData(OrganisationDetailedDto, { description: 'The detailed view after the change' }),
      ApiErrors(400, 401, 403, 404, 406, 413, 422, { 404: 'An image field names no file of the organisation.' }),
    ),
  changes: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'listOrganisationHistory',
        summary: 'Settings history',
        description:
          'Not in the interface spec. Permission: manage-organisation. Every change, newest first, with who ' +
          'made it. As in the detailed view, fields the caller’s permissions do not reach are left out of each ' +
          'change (the entry stays); secrets show only as "(changed)" or "(cleared)".',
      }),
      ApiListQuery(),
      ApiPaginated(OrganisationChangeDto),
      ApiErrors(400, 401, 403, 406, 422),
    ),
};

import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiDocs, ApiErrors, ApiIdParam } from '#app/platform';
import { PersonalDataDto } from './personal-data.responses.js';

const WHAT =
  'Everything the service holds about the user (docs/privacy.md#access-and-portability): their record, roles, every shift ' +
  'ever booked for them (cancelled ones with cancelled_at), expenses, claims, files, log-ins and calendar feeds. Other ' +
  'people appear by id only; secrets (password hash, second-factor keys, feed tokens) never.';

/** What the OpenAPI document says of PersonalDataController. */
export const PersonalDataDocs = {
  controller: () => ApiDocs(ApiTags('privacy'), ApiBearerAuth()),
  mine: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'exportMyPersonalData',
        summary: 'The caller’s personal data (right of access and portability)',
        description: `${WHAT} Permission: any logged-in user, for themself.`,
      }),
      ApiData(PersonalDataDto),
      ApiErrors(400, 401, 404, 406, { 404: 'The caller’s user no longer exists.' }),
    ),
  ofUser: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'exportUserPersonalData',
        summary: 'A user’s personal data, for their data-protection officer',
        description:
          `${WHAT} Permission: manage-data-protection over the user (a role in a team the caller manages); the ` +
          'caller’s own id answers as /api/users/me/personal-data does. Another user of the organisation: 403; an ' +
          'unknown user or another organisation’s: 404.',
      }),
      ApiIdParam('id', 'User id'),
      ApiData(PersonalDataDto),
      ApiErrors(400, 401, 403, 404, 406),
    ),
};

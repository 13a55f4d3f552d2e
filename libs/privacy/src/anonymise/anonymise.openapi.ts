import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiDocs, ApiErrors, ApiIdParam } from '#app/platform';
import { AnonymiseSelfBody, AnonymisedUserDto } from './anonymise.dto.js';

const EFFECTS =
  'It cannot be undone. When it answers, the user cannot log in and every token of theirs is dead; their shifts ' +
  'that have not started are cancelled and their series end that day; their expenses and claims stay with their ' +
  'texts emptied and attachments removed; wherever they appear they are `Anonymised user` with status ' +
  '`anonymised`; webhook subscribers to `user.anonymised` get `{ id }` (docs/privacy.md).';

/** What the OpenAPI document says of AnonymiseController: one composed decorator per route. */
export const AnonymiseDocs = {
  controller: () => ApiDocs(ApiTags('privacy'), ApiBearerAuth()),
  self: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'anonymiseCurrentUser',
        summary: 'Anonymise the caller',
        description:
          'Permission: any logged-in user, who gives their password again. Rate limited as the log-in is (429 with ' +
          'Retry-After): AUTH_RATE_LIMIT attempts a minute for the account from one client address, twenty times that per ' +
          `15 minutes from anywhere; a refused attempt changes nothing. ${EFFECTS}`,
      }),
      ApiBody({ type: AnonymiseSelfBody }),
      ApiData(AnonymisedUserDto),
      ApiErrors(400, 401, 406, 413, 422, 429, {
        422: 'The password is wrong or missing (`password`); nothing changed.',
        429: 'Too many attempts for the account: wait `Retry-After` seconds; nothing changed.',
      }),
    ),
  user: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'anonymiseUser',
        summary: 'Anonymise a user',
        description:
          'Permission: `manage-data-protection` over the user (they hold a role in a team the caller manages, as for ' +
          `\`approve-claims\`). ${EFFECTS}`,
      }),
      ApiIdParam('id', 'User id'),
      ApiData(AnonymisedUserDto),
      ApiErrors(400, 401, 403, 404, 406, 409, 422, {
        403: 'The caller does not manage the user through `manage-data-protection`.',
        404: 'No such user in the caller’s organisation.',
        409: 'The user is anonymised already.',
        422: 'The id is the caller’s own (`id`): use POST /api/users/me/anonymise.',
      }),
    ),
};

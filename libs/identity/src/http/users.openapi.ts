import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiErrors, ApiIdParam, ApiDocs } from '#app/platform';
import { CurrentUserDto, UserBaseDto } from './user.responses.js';

/** What the OpenAPI document says of UsersController: one composed decorator per route. */
export const UsersDocs = {
  controller: () => ApiDocs(ApiTags('users'), ApiBearerAuth()),
  me: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getCurrentUser',
        summary: 'The caller as a UserBase, with its permissions',
        description:
          'Not in the interface spec. Permission: any logged-in user. `can_manage`: whether any of the caller’s permissions reaches its own team.',
      }),
      ApiData(CurrentUserDto),
      ApiErrors(400, 401, 404, 406, { 404: 'The caller’s user no longer exists.' }),
    ),
  get: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getUser',
        summary: 'One user of the caller’s organisation as a UserBase',
        description:
          'Not in the interface spec. Permission: any logged-in user; `can_manage` says whether the caller ' +
          'manages the user through any permission. A user of another organisation is a 404.',
      }),
      ApiIdParam('id', 'User id'),
      ApiData(UserBaseDto),
      ApiErrors(400, 401, 404, 406),
    ),
};

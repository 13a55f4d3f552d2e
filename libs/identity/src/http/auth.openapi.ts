import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiDocs } from '#app/platform';
import { JwtDto, PreAuthTokenDto } from './auth.responses.js';

/** What every one of the three log-in routes can refuse, before and after reading its body. */
const LOGIN_ERRORS = [400, 406, 413, 422, 429] as const;

/** What the OpenAPI document says of AuthController: one composed decorator per route. */
export const AuthDocs = {
  controller: () => ApiDocs(ApiTags('authentication')),
  preAuthToken: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'createPreAuthToken',
        summary: 'Create pre-authentication token',
        description:
          'Rate limited (429 with Retry-After): AUTH_RATE_LIMIT attempts a minute for one account from one client address, twenty times that per 15 minutes ' +
          'for one account from anywhere, and AUTH_RATE_LIMIT_PER_ADDRESS requests a minute from one address, refused bodies included. ' +
          'The response names the two-factor method, whose key has already been sent. Permission: none (no JWT).',
      }),
      ApiOkResponse({ type: PreAuthTokenDto }),
      ApiErrors(...LOGIN_ERRORS, 401, {
        401: 'Wrong e-mail or password (the same answer for both, in the same time).',
      }),
    ),
  token: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'createToken',
        summary: 'Create JWT',
        description:
          'Five wrong two-factor keys burn the pre-authentication token. AUTH_RATE_LIMIT_PER_ADDRESS requests ' +
          'a minute from one address (429). Permission: none (no JWT).',
      }),
      ApiOkResponse({ type: JwtDto }),
      ApiErrors(...LOGIN_ERRORS, 401, {
        401: 'Wrong, used, burnt or expired pre-authentication token, or a wrong or missing two-factor key.',
      }),
    ),
  refresh: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'refreshToken',
        summary: 'Refresh JWT',
        description:
          'Once per token, within JWT_REFRESH_TTL of its issue: of several refreshes of one token (a double submit, parallel tabs) exactly one succeeds. ' +
          'Presenting the refreshed token again within JWT_REFRESH_GRACE seconds (default 5) of that refresh is a 409 with no token, and the token the ' +
          'refresh answered keeps working; presenting it later revokes every token of that log-in (401). ' +
          'AUTH_RATE_LIMIT_PER_ADDRESS requests a minute from one address (429). ' +
          'Permission: none (the JWT travels in the body).',
      }),
      ApiOkResponse({ type: JwtDto }),
      ApiErrors(...LOGIN_ERRORS, 401, 409, {
        401: 'Invalid, revoked or too old a token, or a reuse of a refreshed token after the grace (which revokes the log-in).',
        409: 'The token was refreshed less than JWT_REFRESH_GRACE seconds ago: use the token that refresh answered. Nothing is revoked.',
      }),
    ),
  logout: () =>
    ApiDocs(
      ApiBearerAuth(),
      ApiOperation({
        operationId: 'logOut',
        summary: 'Log out',
        description:
          'Not in the interface spec: revokes the caller’s token and any token refreshed from it. Permission: any logged-in user. Takes no body.',
      }),
      ApiNoContentResponse({ description: 'Logged out; no body' }),
      ApiErrors(400, 401, 406),
    ),
};

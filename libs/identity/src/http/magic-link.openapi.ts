import { ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiDocs, ApiErrors } from '#app/platform';

/** What the OpenAPI document says of MagicLinkController: one composed decorator per route. */
export const MagicLinkDocs = {
  controller: () => ApiDocs(ApiTags('authentication')),
  page: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'openMagicLink',
        summary: 'Magic link landing page',
        description:
          'Not for API clients: the page the e-mailed magic link (PUBLIC_URL/auth/magic-link?key=…) opens when ' +
          'no front end claims the address. It shows the key for the user ' +
          'to hand back to the app, which passes it as `key` to POST /auth/api/token. Permission: none (no ' +
          'JWT). A missing or malformed key gets a page that says so (still 200). A key holding text no ' +
          'page can show (a NUL, an unpaired surrogate), or given twice, is a 422 with the JSON error body.',
      }),
      ApiQuery({
        name: 'key',
        required: false,
        description: 'The two-factor key the link carries',
        schema: { type: 'string' },
      }),
      ApiProduces('text/html'),
      ApiOkResponse({ description: 'An HTML page', content: { 'text/html': { schema: { type: 'string' } } } }),
      ApiErrors(422, {
        422: 'The key holds a NUL or an unpaired surrogate, or is given more than once; `errors.key` says which.',
      }),
    ),
};

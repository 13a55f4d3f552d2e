import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ApiData, ApiErrors, ApiIdParam, ApiDocs } from '#app/platform';
import { FileDto } from './file.responses.js';

/** What a signed download answers in: the file's own type, or a thumbnail's (PNG, or JPEG for a JPEG). */
const CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'] as const;

/** What the OpenAPI document says of FilesController: one composed decorator per route. */
export const FilesDocs = {
  controller: () => ApiDocs(ApiTags('files')),
  upload: () =>
    ApiDocs(
      ApiBearerAuth(),
      ApiConsumes('multipart/form-data'),
      ApiBody({
        schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
      }),
      ApiOperation({
        operationId: 'uploadFile',
        summary: 'Upload a file',
        description:
          'Permission: any logged-in user; the file belongs to the caller. ' +
          'Images (PNG, JPEG, GIF, WebP) and PDFs, judged by content. Over UPLOAD_MAX_BYTES: 413. An image ' +
          'that does not decode, or has more than 100 megapixels, a PDF without its %%EOF marker, or more than ' +
          'one file part: 422 naming `file`. A malformed multipart body (no boundary, not terminated), or a ' +
          'body that is not multipart: 400. A refused upload stores nothing. `thumbnails` maps ' +
          'small/medium/large to signed URLs of scaled copies.',
      }),
      ApiData(FileDto, { status: 201, description: 'The stored file, with signed URLs' }),
      ApiErrors(400, 401, 406, 413, 422),
    ),
  get: () =>
    ApiDocs(
      ApiBearerAuth(),
      ApiOperation({
        operationId: 'getFile',
        summary: 'A file of the caller’s organisation, with fresh signed URLs',
        description:
          'Permission: none beyond the read rule. Readable by its uploader; by whoever may read a record it is ' +
          'attached to (an expense attachment: the expense’s owner and those who approve claims for them); ' +
          'and, ' +
          'for an organisation image (`header_logo`, `logo`), by every member. An unknown id or another ' +
          'organisation’s file: 404 (never a hint that it exists: docs/http-conventions.md#tenancy). ' +
          'A file of the caller’s organisation the caller may not read: 403 (a refusal by the permission or hierarchy ' +
          'rule: docs/http-conventions.md#hierarchy).',
      }),
      ApiIdParam('id', 'File id'),
      ApiData(FileDto),
      ApiErrors(400, 401, 403, 404, 406),
    ),
  content: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'downloadFile',
        summary: 'Download through a signed URL',
        description:
          'Permission: none (no JWT): the signature is the permission. Use the URLs the file records carry ' +
          '(`signed_url`, `thumbnails`) as they are; a tampered or expired signature, ' +
          'or a missing part of it, is a 403. The answer is the file itself (Content-Disposition inline, ' +
          'Cache-Control private, max-age=3600), not JSON: the Accept rule does not apply.',
      }),
      ApiIdParam('id', 'File id'),
      ApiQuery({
        name: 'variant',
        required: true,
        description: 'The original or a thumbnail size',
        schema: { type: 'string', enum: ['original', 'small', 'medium', 'large'] },
      }),
      ApiQuery({
        name: 'expires',
        required: true,
        description: 'Expiry, in seconds since 1970',
        schema: { type: 'string', pattern: '^\\d{1,12}$' },
      }),
      ApiQuery({
        name: 'signature',
        required: true,
        description: 'HMAC of file, variant and expiry',
        schema: { type: 'string' },
      }),
      ApiProduces(...CONTENT_TYPES),
      ApiOkResponse({
        description: 'The file’s bytes, in its own type (a thumbnail: PNG, or JPEG for a JPEG)',
        content: Object.fromEntries(
          CONTENT_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
        ),
        headers: {
          'Content-Disposition': { description: 'inline, with the original file name', schema: { type: 'string' } },
          'Cache-Control': { description: 'private, max-age=3600', schema: { type: 'string' } },
        },
      }),
      ApiErrors(403, 404, {
        403: 'The signature is missing, tampered with or expired.',
        404: 'No such file, or no thumbnail of that size.',
      }),
    ),
};

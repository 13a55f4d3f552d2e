import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiDocs } from '../http/openapi.js';
import { ServiceIndexDto } from './health.responses.js';

/** What the OpenAPI document says of RootController: one composed decorator per route. */
export const RootDocs = {
  controller: () => ApiDocs(ApiTags('health')),
  index: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getServiceIndex',
        summary: 'Where the documentation and the health check are',
        description:
          'Permission: none (no JWT). Always the same small JSON object, with paths relative to the service’s ' +
          'address. Not under /api: the Accept rule does not apply.',
      }),
      ApiOkResponse({
        type: ServiceIndexDto,
        description: 'The service’s name and the paths of its documentation and health check',
      }),
    ),
};

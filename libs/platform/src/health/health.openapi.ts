import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiDocs } from '../http/openapi.js';
import { HealthDto } from './health.responses.js';

/** What the OpenAPI document says of HealthController: one composed decorator per route. */
export const HealthDocs = {
  controller: () => ApiDocs(ApiTags('health')),
  check: () =>
    ApiDocs(
      ApiOperation({
        summary: 'Liveness of the database and the queue backend',
        description:
          'For load balancers and orchestrators. Permission: none (no JWT). Each dependency gets two seconds ' +
          'to answer. Not under /api: the Accept rule does not apply.',
      }),
      ApiResponse({ status: 200, type: HealthDto, description: 'The database and the queue backend answer' }),
      ApiResponse({ status: 503, type: HealthDto, description: 'One of them does not; `details` says which and why' }),
    ),
};

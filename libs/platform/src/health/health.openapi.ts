import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiDocs } from '../http/openapi.js';
import { HealthDto, LivenessDto } from './health.responses.js';

const READINESS =
  'Permission: none (no JWT). Ready while this process reaches what its role needs: an API process PostgreSQL ' +
  '(a Redis outage does not make it unready: it serves without Redis); a process that also runs the worker ' +
  '(`npm start`) Redis too, when the queues are on Redis. Each dependency gets two seconds to answer; `details` ' +
  'lists every one, with whether it is required. Not under /api: the Accept rule does not apply.';

/** What the OpenAPI document says of HealthController: one composed decorator per route. */
export const HealthDocs = {
  controller: () => ApiDocs(ApiTags('health')),
  check: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getHealth',
        summary: 'Readiness of this process (the same as /health/ready)',
        description: `For load balancers and orchestrators. ${READINESS}`,
      }),
      ApiResponse({ status: 200, type: HealthDto, description: 'Every required dependency answers' }),
      ApiResponse({
        status: 503,
        type: HealthDto,
        description: 'A required one does not; `details` says which and why',
      }),
    ),
  ready: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getReadiness',
        summary: 'Readiness: may this process be sent traffic?',
        description: `For a readiness probe or a load balancer's health check. ${READINESS}`,
      }),
      ApiResponse({ status: 200, type: HealthDto, description: 'Every required dependency answers' }),
      ApiResponse({
        status: 503,
        type: HealthDto,
        description: 'A required one does not; `details` says which and why',
      }),
    ),
  live: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getLiveness',
        summary: 'Liveness: is the process running?',
        description:
          'For a liveness probe: 200 while the process answers HTTP, whatever its dependencies do (restarting a ' +
          'process does not bring a database back). Permission: none (no JWT). Not under /api: the Accept rule ' +
          'does not apply.',
      }),
      ApiResponse({ status: 200, type: LivenessDto, description: 'The process answers' }),
    ),
};

import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiDocs, ApiErrors } from '../http/openapi.js';

/** The security scheme of GET /metrics: a bearer token that is not a JWT (METRICS_TOKEN). */
export const METRICS_SCHEME = 'metrics_token';

const EXAMPLE =
  '# HELP uvol_events_appended_total Events appended to the log (committed), by type\n' +
  '# TYPE uvol_events_appended_total counter\n' +
  'uvol_events_appended_total{type="ShiftBooked"} 42\n';

/** What the OpenAPI document says of MetricsController. */
export const MetricsDocs = {
  controller: () => ApiDocs(ApiTags('operations')),
  scrape: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getMetrics',
        summary: 'Prometheus metrics of this process',
        description:
          'Permission: none (no JWT); the operator’s METRICS_TOKEN. For a Prometheus scraper: the text exposition format ' +
          '(version 0.0.4). Only when METRICS_TOKEN is set, and ' +
          'only to `Authorization: Bearer <METRICS_TOKEN>` (not a JWT); without METRICS_TOKEN the route does not exist (404). ' +
          'Series: Node process metrics (prom-client defaults); `http_request_duration_seconds` (histogram: `method`, `route` ' +
          'as the route pattern, `unmatched` where no route matched, `status_code`); `uvol_events_appended_total` (`type`); ' +
          '`uvol_reactor_lag_events` (`reactor`: events of the types it reads that it has not handled) and `uvol_queue_jobs` ' +
          '(`queue`, `state`: waiting, active, delayed, failed), both from the process that runs the reactors only (a worker, ' +
          'or the standalone process), so a sum over every target counts each job once; `uvol_webhook_deliveries_total` ' +
          '(`outcome`: delivered, retried, failed). Counters count what this process did since it started. ' +
          'A worker process serves the same on METRICS_PORT. Not under /api: the Accept rule does not apply.',
      }),
      ApiBearerAuth(METRICS_SCHEME),
      ApiProduces('text/plain'),
      ApiOkResponse({
        description: 'The metrics, in the Prometheus text format',
        content: { 'text/plain': { schema: { type: 'string', example: EXAMPLE } } },
      }),
      ApiErrors(401, 404, {
        401: 'No `Authorization: Bearer` header, or not the METRICS_TOKEN.',
        404: 'METRICS_TOKEN is not set: there is no metrics route.',
      }),
    ),
};

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { errorBody, type ErrorBody } from '../http/error-body.js';
import { metricsRefusal, refusalHeaders } from './metrics-access.js';
import { Metrics } from './metrics.js';

/**
 * A worker process has no HTTP application: with METRICS_PORT set it answers GET /metrics on that
 * port (on HOST), with the API's token rule (docs/metrics.md). Anything else there is a 404.
 */
@Injectable()
export class MetricsPort implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MetricsPort.name);
  private server: Server | undefined;

  constructor(
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.metrics.port;
    if (port === undefined) return;
    const server = createServer((req, res) => {
      const send = (status: number, body: ErrorBody | string, type = 'application/json; charset=utf-8') => {
        res.writeHead(status, {
          'content-type': type,
          'cache-control': 'no-store',
          ...(typeof body !== 'string' && refusalHeaders(body)),
        });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      const path = (req.url ?? '/').split('?')[0];
      if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD'))
        return send(404, errorBody(404, `Cannot ${req.method} ${path}`));
      const refusal = metricsRefusal(this.config.metrics.token, req.headers.authorization);
      if (refusal) return send(refusal.status_code, refusal);
      this.metrics.render().then(
        ({ contentType, body }) => send(200, body, contentType),
        (err: Error) => send(500, errorBody(500, `metrics could not be read: ${err.message}`)),
      );
    });
    server.listen(port, this.config.http.host);
    await once(server, 'listening');
    this.server = server;
    this.logger.log(`metrics on http://${this.config.http.host}:${port}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((done) => this.server!.close(done));
  }
}

import { Controller, Get, Headers, Inject, Res, SetMetadata } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { replyWith } from '../http/error-reply.js';
import { PUBLIC_ROUTE } from '../http/public.decorator.js';
import { metricsRefusal, refusalHeaders } from './metrics-access.js';
import { MetricsDocs } from './metrics.openapi.js';
import { Metrics } from './metrics.js';

/** GET /metrics on an HTTP process (docs/metrics.md); its own token, not the JWT guard. */
@Controller('metrics')
@MetricsDocs.controller()
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @SetMetadata(PUBLIC_ROUTE, true)
  @MetricsDocs.scrape()
  async scrape(@Headers('authorization') authorization: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    const refusal = metricsRefusal(this.config.metrics.token, authorization);
    if (refusal) {
      replyWith(reply.headers(refusalHeaders(refusal)), refusal.status_code, refusal);
      return;
    }
    const { contentType, body } = await this.metrics.render();
    await reply.type(contentType).send(body);
  }
}

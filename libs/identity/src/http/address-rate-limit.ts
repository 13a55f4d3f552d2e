import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig, RateLimiter, replyWithError } from '#app/platform';

const CONFIG_KEY = 'addressRateLimit';

/**
 * Counts every request to the route against AUTH_RATE_LIMIT_PER_ADDRESS, under `name` (one count
 * per route and client address). The count is taken when the request arrives, before its body is
 * parsed or validated, so a flood of malformed (400) or invalid (422) bodies reaches the 429 too.
 */
export const AddressRateLimited = (name: string) => RouteConfig({ [CONFIG_KEY]: name });

/** The onRequest hook behind @AddressRateLimited, added to the HTTP server when the module starts. */
@Injectable()
export class AddressRateLimit implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // Fastify merges hooks into every route when the server gets ready, so routes Nest registered
    // before this runs are covered; without an HTTP server (CLI, worker) there is nothing to do.
    const fastify = this.adapterHost?.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.addHook('onRequest', (req, reply) => this.count(req, reply));
  }

  private async count(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const name = (req.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[CONFIG_KEY];
    if (typeof name !== 'string') return;
    try {
      await this.limiter.hit(`${name}:address:${req.ip}`, this.config.auth.rateLimit.perAddress);
    } catch (err) {
      await replyWithError(reply, err);
    }
  }
}

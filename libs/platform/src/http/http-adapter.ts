import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { Server } from 'node:http';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { replyWithError } from './error-reply.js';

type ErrorHandler = Parameters<FastifyInstance['setErrorHandler']>[0];
/** Fastify's options for an HTTP/1 server, the ones createHttpApp gives. */
type AdapterOptions = FastifyServerOptions<Server>;

/**
 * The Fastify adapter with its error handler installed before any plugin or route exists
 * (docs/http-conventions.md#one-error-handler). Fastify gives a route the error handler of the
 * moment it loads the route; Nest installs its own only after every module's onModuleInit, so a
 * module that awaited a plugin there (the queue dashboard did) had every route loaded with
 * Fastify's default handler. Installed here, each route gets this one whenever it is loaded, and
 * it hands each error to Nest's exception layer (the global filter) once Nest has given it.
 */
export class ContractFastifyAdapter extends FastifyAdapter {
  private nestHandler: ErrorHandler | undefined;

  constructor(options: AdapterOptions) {
    super(options);
    const fastify = this.getInstance();
    fastify.setErrorHandler((err, req, reply) => {
      if (this.nestHandler) return this.nestHandler.call(fastify, err, req, reply);
      // Before Nest's init (an inject() in a test): the same answer the filter gives.
      void replyWithError(reply, err);
    });
  }

  /** Nest's exception layer: kept for the handler above, not installed a second time. */
  override setErrorHandler(handler: ErrorHandler) {
    this.nestHandler = handler;
    return this.getInstance();
  }
}

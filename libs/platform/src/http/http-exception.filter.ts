import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { mapError } from './error-mapping.js';

/** The one global filter: every error leaves as the body api.md fixes. */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(err: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, body, headers, unexpected } = mapError(err);
    if (unexpected) this.logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    if (headers) void reply.headers(headers);
    void reply.status(status).type('application/json; charset=utf-8').send(body);
  }
}

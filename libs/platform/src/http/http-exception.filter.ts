import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { replyWithError } from './error-reply.js';

/** The one global filter: every error leaves as the body docs/http-conventions.md#the-error-body fixes. */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  catch(err: unknown, host: ArgumentsHost): void {
    void replyWithError(host.switchToHttp().getResponse<FastifyReply>(), err);
  }
}

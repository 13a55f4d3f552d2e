import { createHash, timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { errorBody } from '../http/error-body.js';
import { replyWith } from '../http/error-reply.js';
import { QueueAdmin } from './queue-admin.js';

/** Where the dashboard lives; docs/http-conventions.md#operator-routes. */
export const DASHBOARD_PATH = '/admin/queues';
const USER = 'admin';

/**
 * bull-board at /admin/queues, behind HTTP Basic authentication (user `admin`, ADMIN_PASSWORD).
 * It shows every organisation's jobs, so it is the operator's alone: no JWT, no organisation scope.
 * Loaded only when ADMIN_PASSWORD is set; otherwise the path is unknown, a 404 like any other.
 */
@Injectable()
export class QueueDashboard implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly admin: QueueAdmin,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const password = this.config.admin.password;
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!password || !fastify) return;
    const board = new FastifyAdapter();
    board.setBasePath(DASHBOARD_PATH);
    createBullBoard({
      queues: this.admin.names.map((name) => new BullMQAdapter(this.admin.queue(name))),
      // @bull-board/fastify 9.10.1 declares its own copy of @bull-board/api 9.10.1's types: same shape.
      serverAdapter: board as unknown as Parameters<typeof createBullBoard>[0]['serverAdapter'],
      options: { uiConfig: { boardTitle: 'uvol queues' } },
    });
    const authorised = basicAuth(USER, password);
    // The hook guards every route of the plugin registered in the same scope: the page, its assets and its API.
    await fastify.register(async (scope) => {
      scope.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
        if (authorised(req.headers.authorization)) return;
        void reply.header('www-authenticate', 'Basic realm="uvol queues", charset="UTF-8"');
        return replyWith(reply, 401, errorBody(401, 'The queue dashboard needs the user admin and ADMIN_PASSWORD'));
      });
      await scope.register(board.registerPlugin(), { prefix: DASHBOARD_PATH });
    });
  }
}

/**
 * Whether an Authorization header carries `user:password`. Both sides are hashed first, so the
 * constant-time comparison sees equal lengths and the time says nothing about the password.
 */
export function basicAuth(user: string, password: string): (header: string | undefined) => boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  const expected = digest(`${user}:${password}`);
  return (header) => {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
    const given = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
    return timingSafeEqual(digest(given), expected) && match !== null;
  };
}

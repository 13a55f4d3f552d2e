import { Controller, Get, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public } from '#app/platform';
import { MagicLinkDocs } from './magic-link.openapi.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Where the e-mailed magic link lands when no front end claims the address. The key alone cannot
 * log anyone in (it needs the pre-authentication token the app holds), so the page shows it for
 * the user to hand back to the app, rather than a bare 404.
 */
@MagicLinkDocs.controller()
@Public()
@Controller('auth/magic-link')
export class MagicLinkController {
  @Get()
  @MagicLinkDocs.page()
  page(@Query('key') key: string | undefined, @Res() reply: FastifyReply): void {
    const body =
      key && /^[A-Za-z0-9_-]{1,128}$/.test(key)
        ? `<p>Return to the app where you started signing in. If it asks for a key, use:</p><p><code>${escape(key)}</code></p>`
        : '<p>This sign-in link is incomplete. Start signing in again from the app.</p>';
    void reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head><body>${body}</body></html>`,
      );
  }
}

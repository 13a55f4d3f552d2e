import { Controller, Delete, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { type Caller, CurrentCaller } from '#app/identity';
import { NotFoundError, Public } from '#app/platform';
import { notModified } from '../calendar-feed/calendar-feed.js';
import { CalendarFeedQueries } from '../calendar-feed/calendar-feed.queries.js';
import { IssueCalendarFeedCommand } from '../calendar-feed/issue-calendar-feed.command.js';
import { RevokeCalendarFeedCommand } from '../calendar-feed/revoke-calendar-feed.command.js';
import { CACHE_CONTROL, CalendarFeedUrlDto } from './calendar-feed.responses.js';
import { CalendarFeedDocs } from './calendar-feed.openapi.js';

const CALENDAR = 'text/calendar; charset=utf-8';

/**
 * The caller's secret calendar feed (docs/rota-domain.md#calendar-feeds): create or rotate, revoke, and the
 * feed itself.
 */
@CalendarFeedDocs.controller()
@Controller()
export class CalendarFeedController {
  constructor(
    private readonly commands: CommandBus,
    private readonly feeds: CalendarFeedQueries,
  ) {}

  @Post('api/users/me/calendar-feed')
  @HttpCode(201)
  @CalendarFeedDocs.issue()
  async issue(@CurrentCaller() caller: Caller): Promise<{ data: CalendarFeedUrlDto }> {
    return { data: await this.commands.execute(new IssueCalendarFeedCommand(caller)) };
  }

  @Delete('api/users/me/calendar-feed')
  @HttpCode(204)
  @CalendarFeedDocs.revoke()
  async revoke(@CurrentCaller() caller: Caller): Promise<void> {
    await this.commands.execute(new RevokeCalendarFeedCommand(caller));
  }

  @Public()
  @Get('calendar/:token.ics')
  @CalendarFeedDocs.feed()
  async feed(
    @Param('token') token: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const feed = await this.feeds.feed(token);
    if (!feed) throw new NotFoundError('Calendar feed');
    void reply.header('etag', feed.etag).header('cache-control', CACHE_CONTROL);
    if (notModified(ifNoneMatch, feed.etag)) {
      await reply.code(304).send();
      return;
    }
    await reply.type(CALENDAR).send(feed.body);
  }
}

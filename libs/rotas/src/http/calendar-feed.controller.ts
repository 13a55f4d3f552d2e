import { Controller, Delete, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  ApiBearerAuth,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { type Caller, CurrentCaller } from '#app/identity';
import { ApiData, ApiErrors, NotFoundError, Public } from '#app/platform';
import { notModified } from '../calendar-feed/calendar-feed.js';
import { CalendarFeedQueries } from '../calendar-feed/calendar-feed.queries.js';
import { IssueCalendarFeedCommand } from '../calendar-feed/issue-calendar-feed.command.js';
import { RevokeCalendarFeedCommand } from '../calendar-feed/revoke-calendar-feed.command.js';
import { CalendarFeedUrlDto } from './calendar-feed.responses.js';

const CALENDAR = 'text/calendar; charset=utf-8';
/**
 * Per user, so never in a shared cache; a client may keep it but asks again each time (with its
 * ETag, so an unchanged feed costs a 304). Replaces the app's default `no-store` for this route.
 */
const CACHE_CONTROL = 'private, no-cache';
const ETAG_HEADER = {
  ETag: {
    description: 'Strong validator: a hash of the body; send it back in If-None-Match',
    schema: { type: 'string' },
  },
} as const;

/** The caller's secret calendar feed (rotas.md "Calendar feeds"): create or rotate, revoke, and the feed itself. */
@ApiTags('shifts')
@Controller()
export class CalendarFeedController {
  constructor(
    private readonly commands: CommandBus,
    private readonly feeds: CalendarFeedQueries,
  ) {}

  @Post('api/users/me/calendar-feed')
  @HttpCode(201)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Create or rotate my calendar feed',
    description:
      'Addition. Permission: any logged-in user, for their own feed. Makes a new secret URL, `PUBLIC_URL/calendar/<token>.ics` (256 random bits, base64url), ' +
      'and answers it; only a hash of the token is stored, so this answer is the only place the URL appears. A feed the caller already had stops working ' +
      '(404) at once: rotating is how a leaked URL is replaced. Takes no body. Two rotations at once: one wins, the other is a 409 and its URL was never live.',
  })
  @ApiData(CalendarFeedUrlDto, { status: 201, description: 'The new feed URL; any previous one no longer works' })
  @ApiErrors(400, 401, 406, 409, { 409: 'A concurrent rotation or revocation won; retry.' })
  async issue(@CurrentCaller() caller: Caller): Promise<{ data: CalendarFeedUrlDto }> {
    return { data: await this.commands.execute(new IssueCalendarFeedCommand(caller)) };
  }

  @Delete('api/users/me/calendar-feed')
  @HttpCode(204)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Revoke my calendar feed',
    description:
      'Addition. Permission: any logged-in user, for their own feed. The feed URL stops working (404). Decision: with no live feed it changes nothing and ' +
      'still answers 204, so a repeated DELETE is harmless.',
  })
  @ApiNoContentResponse({ description: 'Revoked (or there was none); no body' })
  @ApiErrors(400, 401, 406, 409, { 409: 'A concurrent rotation won; retry.' })
  async revoke(@CurrentCaller() caller: Caller): Promise<void> {
    await this.commands.execute(new RevokeCalendarFeedCommand(caller));
  }

  @Public()
  @Get('calendar/:token.ics')
  @ApiOperation({
    summary: 'Calendar feed (iCalendar)',
    description:
      'Addition. Permission: none (no JWT): the token in the path is the permission, and an Authorization header is ignored (a JWT never opens a feed). ' +
      'For calendar clients to subscribe to. An RFC 5545 calendar of the token owner’s booked shifts starting from 30 days before today to six months after ' +
      'it (dates in the organisation’s zone): one VEVENT per shift with the same UID as the shift’s notification e-mails, SEQUENCE the shift’s change count, ' +
      'DTSTART/DTEND with the rota zone’s TZID and its VTIMEZONE, SUMMARY the rota’s name, DESCRIPTION its team. A cancelled shift leaves the feed. ' +
      'The answer carries an ETag; a request whose If-None-Match names it gets a 304 with no body. An unknown, malformed, rotated-away or revoked token: 404 ' +
      'with the usual error body, the same for each. Not JSON: the Accept rule does not apply.',
  })
  @ApiParam({
    name: 'token',
    description: 'The feed’s secret token, as in the URL the create route answered',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
  })
  @ApiProduces('text/calendar')
  @ApiOkResponse({
    description: 'The iCalendar feed',
    content: { 'text/calendar': { schema: { type: 'string', example: 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\n…' } } },
    headers: { ...ETAG_HEADER, 'Cache-Control': { description: CACHE_CONTROL, schema: { type: 'string' } } },
  })
  @ApiResponse({ status: 304, description: 'Unchanged since the ETag in If-None-Match; no body', headers: ETAG_HEADER })
  @ApiErrors(404, 414, { 404: 'No live feed has this token (unknown, rotated away or revoked).' })
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

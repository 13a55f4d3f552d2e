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
import { ApiData, ApiErrors, ApiDocs } from '#app/platform';
import { CACHE_CONTROL, CalendarFeedUrlDto } from './calendar-feed.responses.js';

const ETAG_HEADER = {
  ETag: {
    description:
      'Weak validator (`W/"…"`): a hash of the feed, the same whether the answer is compressed or not; send it back in If-None-Match',
    schema: { type: 'string' },
  },
} as const;

/** What the OpenAPI document says of CalendarFeedController: one composed decorator per route. */
export const CalendarFeedDocs = {
  controller: () => ApiDocs(ApiTags('shifts')),
  issue: () =>
    ApiDocs(
      ApiBearerAuth(),
      ApiOperation({
        operationId: 'createCalendarFeed',
        summary: 'Create or rotate my calendar feed',
        description:
          'Addition. Permission: any logged-in user, for their own feed. Makes a new secret URL, ' +
          '`PUBLIC_URL/calendar/<token>.ics` (256 random bits, base64url), ' +
          'and answers it; only a hash of the token is stored, so this answer is the only place the URL appears. A feed the caller already had stops working ' +
          '(404) at once: rotating is how a leaked URL is replaced. Takes no body. Two rotations at once: one ' +
          'wins, the other is a 409 and its URL was never live.',
      }),
      ApiData(CalendarFeedUrlDto, { status: 201, description: 'The new feed URL; any previous one no longer works' }),
      ApiErrors(400, 401, 406, 409, { 409: 'A concurrent rotation or revocation won; retry.' }),
    ),
  revoke: () =>
    ApiDocs(
      ApiBearerAuth(),
      ApiOperation({
        operationId: 'revokeCalendarFeed',
        summary: 'Revoke my calendar feed',
        description:
          'Addition. Permission: any logged-in user, for their own feed. The feed URL stops working (404). ' +
          'Decision: with no live feed it changes nothing and ' +
          'still answers 204, so a repeated DELETE is harmless.',
      }),
      ApiNoContentResponse({ description: 'Revoked (or there was none); no body' }),
      ApiErrors(400, 401, 406, 409, { 409: 'A concurrent rotation won; retry.' }),
    ),
  feed: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getCalendarFeed',
        summary: 'Calendar feed (iCalendar)',
        description:
          'Addition. Permission: none (no JWT): the token in the path is the permission, and an Authorization header is ignored (a JWT never opens a feed). ' +
          'For calendar clients to subscribe to. An RFC 5545 calendar of the token owner’s booked shifts ' +
          'starting from 30 days before today to six months after ' +
          'it (dates in the organisation’s zone): one VEVENT per shift with the same UID as the shift’s ' +
          'notification e-mails, SEQUENCE the shift’s change count, ' +
          'DTSTART/DTEND with the rota zone’s TZID and its VTIMEZONE, SUMMARY the rota’s name, DESCRIPTION its team. A cancelled shift leaves the feed. ' +
          'The answer carries an ETag; a request whose If-None-Match names it gets a 304 with no body. An ' +
          'unknown, malformed, rotated-away or revoked token: 404 ' +
          'with the usual error body, the same for each. Not JSON: the Accept rule does not apply.',
      }),
      ApiParam({
        name: 'token',
        description: 'The feed’s secret token, as in the URL the create route answered',
        schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
      }),
      ApiProduces('text/calendar'),
      ApiOkResponse({
        description: 'The iCalendar feed',
        content: { 'text/calendar': { schema: { type: 'string', example: 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\n…' } } },
        headers: { ...ETAG_HEADER, 'Cache-Control': { description: CACHE_CONTROL, schema: { type: 'string' } } },
      }),
      ApiResponse({
        status: 304,
        description: 'Unchanged since the ETag in If-None-Match; no body',
        headers: ETAG_HEADER,
      }),
      ApiErrors(404, 414, { 404: 'No live feed has this token (unknown, rotated away or revoked).' }),
    ),
};

import type { Provider } from '@nestjs/common';
import { CalendarUidDomain } from '../notifications/calendar-uid-domain.js';
import { CalendarFeedQueries } from './calendar-feed.queries.js';
import { CalendarFeedsProjection } from './calendar-feeds.projection.js';
import { IssueCalendarFeedHandler } from './issue-calendar-feed.command.js';
import { RevokeCalendarFeedHandler } from './revoke-calendar-feed.command.js';

/**
 * The calendar feed's handlers, query and projection, and the UIDs' domain the feed and the worker's
 * invitations share (rotas.module.ts lists and exports these).
 */
export const CALENDAR_FEED_PROVIDERS: Provider[] = [
  CalendarUidDomain,
  CalendarFeedsProjection,
  CalendarFeedQueries,
  IssueCalendarFeedHandler,
  RevokeCalendarFeedHandler,
];

import type { Provider, Type } from '@nestjs/common';
import { CalendarFeedController } from '../http/calendar-feed.controller.js';
import { CalendarFeedQueries } from './calendar-feed.queries.js';
import { CalendarFeedsProjection } from './calendar-feeds.projection.js';
import { IssueCalendarFeedHandler } from './issue-calendar-feed.command.js';
import { RevokeCalendarFeedHandler } from './revoke-calendar-feed.command.js';

/** The calendar feed's handlers, query and projection (rotas.module.ts lists these). */
export const CALENDAR_FEED_PROVIDERS: Provider[] = [
  CalendarFeedsProjection,
  CalendarFeedQueries,
  IssueCalendarFeedHandler,
  RevokeCalendarFeedHandler,
];

/** Its controller (rotas-http.module.ts). */
export const CALENDAR_FEED_CONTROLLERS: Type<unknown>[] = [CalendarFeedController];

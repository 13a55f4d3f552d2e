import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/**
 * Per user, so never in a shared cache; a client may keep it but asks again each time (with its
 * ETag, so an unchanged feed costs a 304). Replaces the app's default `no-store` for this route.
 */
export const CACHE_CONTROL = 'private, no-cache';

/** `POST /api/users/me/calendar-feed`: the secret URL, told once. */
@ApiSchema({ name: 'CalendarFeedUrl', description: 'The caller’s secret calendar feed URL (an addition)' })
export class CalendarFeedUrlDto {
  @ApiProperty({
    type: 'string',
    format: 'uri',
    pattern: '/calendar/[A-Za-z0-9_-]{43}\\.ics$',
    description:
      'PUBLIC_URL/calendar/<token>.ics. Anyone holding it can read the caller’s shifts without logging in: ' +
      'keep it private. It is shown only here; only a hash of the token is stored.',
    example: 'https://volunteers.example/calendar/4Yx0cQ3pV1mZr8a2Kq9sT5bN7wE6hJdL0fUgCiPoRkA.ics',
  })
  url!: string;
}

import { Injectable } from '@nestjs/common';
import type { Caller } from '#app/identity';
import {
  type RepeatingShiftObject,
  RepeatingShiftQueries,
  repeatingShiftObjectOf,
} from './booking/repeating-shift.queries.js';
import { RotaQueries, type RotaView } from './rota/rota.queries.js';
import { ShiftQueries, type ShiftView } from './booking/shift.queries.js';
import { CalendarFeedQueries } from './calendar-feed/calendar-feed.queries.js';

/** A shift in a personal-data export: the Shift record and when it was cancelled (null while booked). */
export type PersonalShiftView = ShiftView & { cancelled_at: string | null };

/** What the rota context holds of one user, for a personal-data export (docs/privacy.md#access-and-portability). */
export interface RotasPersonalData {
  shifts: PersonalShiftView[];
  /** The live feed's issue time; the token is a secret and is never read out. */
  calendar_feeds: { created_at: string }[];
}

/** `repeating_shift.*` webhooks' data: the series' object without its weekdays and team. */
export type PublicRepeatingShift = Pick<
  RepeatingShiftObject,
  'id' | 'user_id' | 'rota_id' | 'period' | 'frequency' | 'start_date' | 'end_date'
>;

/**
 * Records as the API shows them, for other contexts that hand them on (webhooks): read by the
 * same queries as the routes, for the organisation given, with no caller. The user summaries'
 * `can_manage` is false (there is no caller to judge it for); a cancelled shift is still found.
 */
@Injectable()
export class RotaRecords {
  constructor(
    private readonly shifts: ShiftQueries,
    private readonly rotas: RotaQueries,
    private readonly series: RepeatingShiftQueries,
    private readonly feeds: CalendarFeedQueries,
  ) {}

  /**
   * Every shift ever booked for the user (cancelled ones included) as the shift routes render them,
   * for no caller (`can_manage` false), and their calendar feed's issue time.
   */
  async personalData(organisationId: number, userId: number): Promise<RotasPersonalData> {
    const tenant = nobody(organisationId);
    const booked = await this.shifts.everBookedFor(tenant, userId);
    const views = await this.shifts.views(
      tenant,
      booked.map((s) => s.id),
    );
    const cancelledAt = new Map(booked.map((s) => [s.id, s.cancelled_at]));
    return {
      shifts: views.map((v) => ({ ...v, cancelled_at: cancelledAt.get(v.id) ?? null })),
      calendar_feeds: await this.feeds.issuedFor(tenant, userId),
    };
  }

  async shift(organisationId: number, id: number): Promise<ShiftView | null> {
    return (await this.shifts.views(nobody(organisationId), [id]))[0] ?? null;
  }

  /** The Rota of the administration routes (no includes). */
  async rota(organisationId: number, id: number): Promise<RotaView | null> {
    return (await this.rotas.byIds(nobody(organisationId), [id]))[0] ?? null;
  }

  async repeatingShift(organisationId: number, id: number): Promise<PublicRepeatingShift | null> {
    const row = await this.series.rowForView({ organisationId }, id);
    if (!row) return null;
    const { user_id, rota_id, period, frequency, start_date, end_date } = repeatingShiftObjectOf(row);
    return { id, user_id, rota_id, period, frequency, start_date, end_date };
  }
}

/** A caller with no user and no permission: reads scoped to the organisation, nothing judged for anyone. */
function nobody(organisationId: number): Caller {
  return { userId: 0, organisationId, permissions: new Set(), sessionId: '', jti: '' };
}

import { sql } from '#app/platform';
import type { BookingRota } from '../domain/booking-rules.js';
import type { Timeline } from '../domain/timeslot-timeline.js';

/** A rota as the booking rules read it (docs/rota-domain.md#booking-rules), and its name. */
export interface RotaForBooking extends BookingRota {
  readonly name: string;
}

/** The `rotas` columns the rules read, for a statement that aliases the table `r`. */
export const ROTA_RULE_COLUMNS = sql.raw(`r.id, r.team_id, r.name, r.start_date::text AS start_date,
  r.end_date::text AS end_date, r.archived, r.closed_dates, r.timeline, r.self_manage, r.allow_same_day_add,
  r.allow_same_day_cancel, r.allow_same_day_edit, r.restricted_by_role, r.role_profile_ids, r.require_full_timeslot`);

/** What ROTA_RULE_COLUMNS reads (ids as the driver or JSON gives them). */
export interface RotaRuleRow {
  readonly id: number | string;
  readonly team_id: number | string;
  readonly name: string;
  readonly start_date: string;
  readonly end_date: string | null;
  readonly archived: boolean;
  readonly closed_dates: string[];
  readonly timeline: Timeline;
  readonly self_manage: boolean;
  readonly allow_same_day_add: boolean;
  readonly allow_same_day_cancel: boolean;
  readonly allow_same_day_edit: boolean;
  readonly restricted_by_role: boolean;
  readonly role_profile_ids: (number | string)[];
  readonly require_full_timeslot: boolean;
}

/** The one mapping of a `rotas` row to what the booking rules and the views read. */
export const rotaForBooking = (r: RotaRuleRow, zone: string): RotaForBooking => ({
  id: Number(r.id),
  teamId: Number(r.team_id),
  name: r.name,
  zone,
  calendar: {
    start_date: r.start_date,
    end_date: r.end_date,
    archived: r.archived,
    closed_dates: new Set(r.closed_dates),
    timeline: r.timeline,
  },
  selfManage: r.self_manage,
  requireFullTimeslot: r.require_full_timeslot,
  restrictedByRole: r.restricted_by_role,
  roleProfileIds: r.role_profile_ids.map(Number),
  allowSameDayAdd: r.allow_same_day_add,
  allowSameDayEdit: r.allow_same_day_edit,
  allowSameDayCancel: r.allow_same_day_cancel,
});

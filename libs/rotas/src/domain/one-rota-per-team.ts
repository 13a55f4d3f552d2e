import { addDays } from './calendar-dates.js';
import { type Checked, checked } from './pattern-rules.js';
import { refusal } from './refusals.js';

/** A rota of the new rota's team, as the rule needs it. */
export interface TeamRota {
  readonly rota_id: number;
  readonly start_date: string;
  readonly end_date: string | null;
  readonly archived: boolean;
}

/** The team rotas a new one ends: each ends the day before the new one starts. */
export interface RotasToEnd {
  readonly end: ReadonlyArray<{ readonly rota_id: number; readonly end_date: string }>;
}

/**
 * docs/rota-domain.md#one-rota-per-team-per-day: a non-archived team rota running on the new start date
 * (start before it, end null or on/after it) ends the day before; one starting on or after the new
 * start is a clash, a 422 naming `field` (`team`), whatever the new rota's own end date. Archived
 * rotas take no part. Several running rotas (which the rule never lets happen) are each ended.
 * The shifts an ended rota loses are found with shift-fit's dayChanged / stillFits.
 */
export function oneRotaPerTeam(
  teamRotas: readonly TeamRota[],
  newStartDate: string,
  field = 'team',
): Checked<RotasToEnd> {
  const live = [...teamRotas].filter((r) => !r.archived).sort((a, b) => a.rota_id - b.rota_id);
  const clashes = live
    .filter((r) => r.start_date >= newStartDate)
    .map((r) =>
      refusal(
        field,
        `The team has rota ${r.rota_id} starting on ${r.start_date}, on or after the new rota's start (${newStartDate}): a team has one rota a day.`,
      ),
    );
  const dayBefore = addDays(newStartDate, -1);
  const running = live.filter(
    (r) => r.start_date < newStartDate && (r.end_date === null || r.end_date >= newStartDate),
  );
  return checked(clashes, () => ({ end: running.map((r) => ({ rota_id: r.rota_id, end_date: dayBefore })) }));
}

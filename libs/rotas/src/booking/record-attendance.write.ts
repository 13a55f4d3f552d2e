import { type FieldErrors, ValidationError } from '#app/platform';
import type { AttendanceStatus } from '../rotas.events.js';
import { parseShiftInstant } from './shift-times.js';

/** The attendance body, its shape checked by the DTO. */
export interface AttendanceRequest {
  readonly status: AttendanceStatus | null;
  /** As sent; null or undefined: the shift's own. */
  readonly start_datetime?: string | null;
  readonly end_datetime?: string | null;
  readonly note: string | null;
}

/**
 * The worked times sent, as instants (shapes as for shifts: docs/rota-domain.md#times-in-requests),
 * both problems in one 422; only `attended` takes times (docs/rota-domain.md#attendance), so the
 * other statuses parse none. The decision is decideRecordAttendance (attendance.ts).
 */
export function workedTimesOf(request: AttendanceRequest, zone: string): { start?: Date; end?: Date } {
  if (request.status !== 'attended') return {};
  const errors: FieldErrors = {};
  const parse = (field: 'start_datetime' | 'end_datetime'): Date | undefined => {
    const text = request[field];
    if (text === undefined || text === null) return undefined;
    const instant = parseShiftInstant(text, zone, field);
    if (typeof instant !== 'string') return instant;
    errors[field] = [instant];
    return undefined;
  };
  const [start, end] = [parse('start_datetime'), parse('end_datetime')];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { ...(start && { start }), ...(end && { end }) };
}

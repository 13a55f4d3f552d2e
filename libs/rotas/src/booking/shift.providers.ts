import type { Provider } from '@nestjs/common';
import { BookShiftsHandler } from './book-shifts.command.js';
import { BookingFactsReader } from './booking-facts.js';
import { CancelShiftHandler } from './cancel-shift.command.js';
import { ChangeShiftHandler } from './change-shift.command.js';
import { RecordAttendanceHandler } from './record-attendance.command.js';
import { ShiftQueries } from './shift.queries.js';
import { ShiftsProjection } from './shifts.projection.js';
import { StandInHandler } from './stand-in.command.js';
import { TakeOverShiftHandler } from './take-over.command.js';

/** Shifts: booking, its facts, queries and projection (rotas.module.ts lists these). */
export const SHIFT_PROVIDERS: Provider[] = [
  ShiftsProjection,
  ShiftQueries,
  BookingFactsReader,
  BookShiftsHandler,
  ChangeShiftHandler,
  CancelShiftHandler,
  RecordAttendanceHandler,
  StandInHandler,
  TakeOverShiftHandler,
];

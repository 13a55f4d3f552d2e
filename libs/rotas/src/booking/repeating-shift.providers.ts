import type { Provider } from '@nestjs/common';
import { CancelSeriesHandler } from './cancel-series.command.js';
import { RepeatingShiftQueries } from './repeating-shift.queries.js';
import { RepeatingShiftsProjection } from './repeating-shifts.projection.js';
import { SeriesQueries } from './series.queries.js';

/** Repeating shifts: their projection, queries (SeriesQueries: the views' data_ready) and the commands the API issues (rotas.module.ts lists these). */
export const REPEATING_SHIFT_PROVIDERS: Provider[] = [
  RepeatingShiftsProjection,
  RepeatingShiftQueries,
  SeriesQueries,
  CancelSeriesHandler,
];

import type { Provider } from '@nestjs/common';
import { ArchiveShiftPatternHandler } from './archive-shift-pattern.command.js';
import { CreateShiftPatternHandler } from './create-shift-pattern.command.js';
import { ShiftPatternQueries } from './shift-pattern.queries.js';
import { ShiftPatternsProjection } from './shift-patterns.projection.js';

/** The shift-pattern aggregate's handlers, queries and projection (rotas.module.ts lists these). */
export const SHIFT_PATTERN_PROVIDERS: Provider[] = [
  ShiftPatternsProjection,
  ShiftPatternQueries,
  CreateShiftPatternHandler,
  ArchiveShiftPatternHandler,
];

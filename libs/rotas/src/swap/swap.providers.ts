import type { Provider } from '@nestjs/common';
import { AcceptSwapHandler } from './accept-swap.command.js';
import { AnswerSwapHandler } from './answer-swap.command.js';
import { ProposeSwapHandler } from './propose-swap.command.js';
import { ShiftSwapQueries } from './shift-swap.queries.js';
import { ShiftSwapsProjection } from './shift-swaps.projection.js';

/** Shift swaps: commands, queries, projection (rotas.module.ts lists these; the mail reactor is notifications'). */
export const SWAP_PROVIDERS: Provider[] = [
  ShiftSwapsProjection,
  ShiftSwapQueries,
  ProposeSwapHandler,
  AcceptSwapHandler,
  AnswerSwapHandler,
];

import type { Provider, Type } from '@nestjs/common';
import { ShiftSwapsController } from '../http/shift-swaps.controller.js';
import { SwapMailReactor } from '../notifications/swap-mail.reactor.js';
import { AcceptSwapHandler } from './accept-swap.command.js';
import { AnswerSwapHandler } from './answer-swap.command.js';
import { ProposeSwapHandler } from './propose-swap.command.js';
import { ShiftSwapQueries } from './shift-swap.queries.js';
import { ShiftSwapsProjection } from './shift-swaps.projection.js';

/** Shift swaps: commands, queries, projection and the mail reactor (rotas.module.ts lists these). */
export const SWAP_PROVIDERS: Provider[] = [
  ShiftSwapsProjection,
  ShiftSwapQueries,
  ProposeSwapHandler,
  AcceptSwapHandler,
  AnswerSwapHandler,
  SwapMailReactor,
];

/** Its controller (rotas-http.module.ts). */
export const SWAP_CONTROLLERS: Type<unknown>[] = [ShiftSwapsController];

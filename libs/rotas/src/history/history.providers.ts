import type { Provider, Type } from '@nestjs/common';
import { RotasHistoryController } from '../http/history.controller.js';
import { RotasHistoryQueries } from './history.queries.js';

/** Record history of shifts and rotas (rotas.module.ts lists these). */
export const HISTORY_PROVIDERS: Provider[] = [RotasHistoryQueries];

/** Its controller (rotas-http.module.ts). */
export const HISTORY_CONTROLLERS: Type<unknown>[] = [RotasHistoryController];

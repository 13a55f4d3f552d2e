import type { Provider } from '@nestjs/common';
import { RotasHistoryQueries } from './history.queries.js';

/** Record history of shifts and rotas (rotas.module.ts lists these). */
export const HISTORY_PROVIDERS: Provider[] = [RotasHistoryQueries];

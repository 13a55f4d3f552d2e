import type { Provider } from '@nestjs/common';
import { RotaViewQueries } from './rota-views.queries.js';

/** The rota views' read model (rotas.module.ts lists these). */
export const VIEW_PROVIDERS: Provider[] = [RotaViewQueries];

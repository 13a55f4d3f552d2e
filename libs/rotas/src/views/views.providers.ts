import type { Provider, Type } from '@nestjs/common';
import { RotaViewsController } from '../http/rota-views.controller.js';
import { RotaViewQueries } from './rota-views.queries.js';

/** The rota views' read model (rotas.module.ts lists these). */
export const VIEW_PROVIDERS: Provider[] = [RotaViewQueries];

/** Their controller (rotas-http.module.ts). */
export const VIEW_CONTROLLERS: Type<unknown>[] = [RotaViewsController];

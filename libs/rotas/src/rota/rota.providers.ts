import type { Provider, Type } from '@nestjs/common';
import { RotasProjection } from './rotas.projection.js';

/** The rota aggregate's handlers, queries and projection, contacts included (rotas.module.ts lists these). */
export const ROTA_PROVIDERS: Provider[] = [RotasProjection];

/** Its controllers (rotas-http.module.ts). */
export const ROTA_CONTROLLERS: Type<unknown>[] = [];

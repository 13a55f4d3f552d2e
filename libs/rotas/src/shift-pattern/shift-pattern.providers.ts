import type { Provider, Type } from '@nestjs/common';

/** The shift-pattern aggregate's handlers, queries and projection (rotas.module.ts lists these). */
export const SHIFT_PATTERN_PROVIDERS: Provider[] = [];

/** Its controllers (rotas-http.module.ts). */
export const SHIFT_PATTERN_CONTROLLERS: Type<unknown>[] = [];

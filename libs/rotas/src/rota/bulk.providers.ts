import type { Provider, Type } from '@nestjs/common';

/** Bulk actions, replace and contacts: their handlers and queries (rotas.module.ts lists these). */
export const BULK_PROVIDERS: Provider[] = [];

/** Their controllers (rotas-http.module.ts). */
export const BULK_CONTROLLERS: Type<unknown>[] = [];

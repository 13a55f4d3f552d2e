import type { Provider } from '@nestjs/common';
import { CreateRotasHandler } from './create-rota.command.js';
import { RotaChanges } from './rota-change.js';
import { RotaQueries } from './rota.queries.js';
import { RotasProjection } from './rotas.projection.js';
import { UpdateRotaHandler } from './update-rota.command.js';
import { UpdateTimeslotsHandler } from './update-timeslots.command.js';

/** The rota aggregate's handlers, queries and projection, contacts included (rotas.module.ts lists these). */
export const ROTA_PROVIDERS: Provider[] = [
  RotasProjection,
  RotaQueries,
  RotaChanges,
  CreateRotasHandler,
  UpdateRotaHandler,
  UpdateTimeslotsHandler,
];

export { RotasModule } from './rotas.module.js';
export { RotasHttpModule } from './rotas-http.module.js';
export type { RotasEvent, RotaEvent, ShiftPatternEvent, TeamEvent } from './rotas.events.js';
export { RotasWorkerModule } from './rotas-worker.module.js';

import { BullModule } from '@nestjs/bullmq';
import type { DynamicModule, Provider } from '@nestjs/common';
import { CancelMisfitsHandler } from './cancel-misfits.command.js';
import { MisfitsProcessor } from './misfits.processor.js';
import { ROTA_MISFITS } from './misfits.reactor.js';
import { ShiftSystemQueries } from './shift-system.queries.js';

/** Cancelling the shifts a rota change leaves outside the rota: queue, processor, handler (the reactor: RotasModule). */
export const MISFIT_WORKER: { imports: DynamicModule[]; providers: Provider[] } = {
  imports: [BullModule.registerQueue({ name: ROTA_MISFITS })],
  providers: [MisfitsProcessor, CancelMisfitsHandler, ShiftSystemQueries],
};

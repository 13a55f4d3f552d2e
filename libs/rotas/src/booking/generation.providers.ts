import { BullModule } from '@nestjs/bullmq';
import type { DynamicModule, Provider } from '@nestjs/common';
import { GenerateOccurrencesHandler } from './generate-occurrences.command.js';
import { GenerationProcessor } from './generation.processor.js';
import { SERIES_GENERATION } from './generation.reactor.js';
import {
  ExtendSeriesHandler,
  SERIES_EXTENSION,
  SeriesExtensionProcessor,
  SeriesExtensionScheduler,
} from './series-extension.js';
import { SeriesQueries } from './series.queries.js';

/**
 * Series generation in the worker: the generation queue (reactor, in RotasModule → processor → GenerateOccurrences)
 * and the daily extension's queue (scheduler → processor → ExtendSeries), with the command handlers
 * only the worker issues. SeriesQueries is listed here for the extension; the API's views read
 * pendingRotas through the same class.
 */
export const GENERATION_WORKER: { imports: DynamicModule[]; providers: Provider[] } = {
  imports: [BullModule.registerQueue({ name: SERIES_GENERATION }, { name: SERIES_EXTENSION })],
  providers: [
    GenerationProcessor,
    GenerateOccurrencesHandler,
    SeriesQueries,
    SeriesExtensionProcessor,
    SeriesExtensionScheduler,
    ExtendSeriesHandler,
  ],
};

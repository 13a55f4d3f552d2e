import { Processor } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import { type Cause, CausedJobProcessor } from '#app/event-store';
import { GenerateOccurrencesCommand } from './generate-occurrences.command.js';
import { type GenerationData, SERIES_GENERATION } from './generation.reactor.js';

/**
 * Books a series' pending occurrences (GenerateOccurrencesCommand), as the system ("series
 * generation"), caused by the RepeatingShiftStarted or RepeatingShiftExtended. Safe to repeat: a
 * retried, stalled or doubled job goes on from the series' generatedUntil and books no date twice.
 * Four series at once: series on different rota-days never meet, those that share a gate decide
 * again (ADR 0008); 1.6x the throughput of one at a time (bench/README.md, Shifts).
 */
@Processor(SERIES_GENERATION, { concurrency: 4 })
export class GenerationProcessor extends CausedJobProcessor<GenerationData> {
  protected readonly reason = 'series generation';

  constructor(commands: CommandBus) {
    super(commands);
  }

  protected async react({ id, organisationId }: GenerationData, cause: Cause): Promise<void> {
    await this.issue(new GenerateOccurrencesCommand(cause, id, organisationId));
  }
}

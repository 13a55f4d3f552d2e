import { Processor } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import { type Cause, CausedJobProcessor } from '#app/event-store';
import { CancelMisfitsCommand, type MisfitJobData } from './cancel-misfits.command.js';
import { ROTA_MISFITS } from './misfits.reactor.js';

/**
 * Cancels the shifts a rota change left outside the rota, as the system ("rota change"), caused
 * by the change: the command's event ids come from the change's, so a retried, stalled or doubled
 * job appends each cancellation once.
 */
@Processor(ROTA_MISFITS)
export class MisfitsProcessor extends CausedJobProcessor<MisfitJobData> {
  protected readonly reason = 'rota change';

  constructor(commands: CommandBus) {
    super(commands);
  }

  protected async react(data: MisfitJobData, cause: Cause): Promise<void> {
    await this.issue(new CancelMisfitsCommand(cause, data));
  }
}

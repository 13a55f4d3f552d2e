import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { FileRecords } from '#app/files';
import { type Caller, metadataOf } from '#app/identity';
import { streams } from '../expenses.events.js';
import { decideAttach, evolve } from './expense.js';

export class AttachFileCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly expenseId: number,
    readonly fileId: number,
    readonly attach: boolean,
  ) {
    super();
  }
}

/** Attaches a file the caller uploaded to the caller's unclaimed expense, or takes it off. */
@CommandHandler(AttachFileCommand)
export class AttachFileHandler implements ICommandHandler<AttachFileCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly files: FileRecords,
  ) {}

  async execute({ caller, expenseId, fileId, attach }: AttachFileCommand): Promise<void> {
    // Looked up before the expense is read and appended to: the embedded database serves one transaction at a time.
    const file = await this.files.find(caller, fileId);
    await this.store.handle(
      streams.expense(expenseId),
      evolve,
      (state) =>
        decideAttach(
          state,
          { expenseId, fileId, attach, organisationId: caller.organisationId, userId: caller.userId },
          { file: file ?? null },
        ),
      { metadata: metadataOf(caller) },
    );
  }
}

import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { FileReadRule, FileRecords } from '#app/files';
import { type Caller, metadataOf } from '#app/identity';
import { SecretBox } from '#app/platform';
import { decideUpdate, evolve, imagesNamed, type NamedFile } from './check-update.js';
import { sealSecrets } from './settings-policy.js';
import { settingsStream } from './settings.events.js';
import { SettingsViews } from './settings-views.js';

/** PUT /api/organisation: any updatable field the caller's permissions allow. */
export class UpdateSettingsCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly body: unknown,
  ) {
    super();
  }
}

@CommandHandler(UpdateSettingsCommand)
export class UpdateSettingsHandler implements ICommandHandler<UpdateSettingsCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly views: SettingsViews,
    private readonly files: FileRecords,
    private readonly readRule: FileReadRule,
    private readonly secrets: SecretBox,
  ) {}

  /**
   * The checks read the files named and the stored settings first (the view: it includes those set
   * at provisioning, which this stream does not). The change is a blind write ('any'): it goes after
   * whatever the stream holds, and the last writer of a field wins.
   */
  async execute({ caller, body }: UpdateSettingsCommand): Promise<void> {
    const files = await this.filesNamed(caller, imagesNamed(body));
    const stored = await this.views.stored(caller.organisationId);
    await this.store.handle(
      settingsStream(caller.organisationId),
      evolve,
      () =>
        decideUpdate(
          stored,
          { organisationId: caller.organisationId, permissions: caller.permissions, body },
          { files, seal: (changes) => sealSecrets(changes, this.secrets) },
        ),
      { expect: 'any', metadata: metadataOf(caller) },
    );
  }

  /** The files the body's logos name, as the caller sees them: another organisation's file is not found. */
  private async filesNamed(caller: Caller, ids: number[]): Promise<Map<number, NamedFile>> {
    const files = new Map<number, NamedFile>();
    for (const id of ids) {
      const file = await this.files.find(caller, id);
      if (file) files.set(id, { mime: file.mime, readable: await this.readRule.mayRead(caller, file) });
    }
    return files;
  }
}

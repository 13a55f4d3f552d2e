import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import { FileRecords } from '#app/files';
import type { Caller } from '#app/identity';
import { ForbiddenError, NotFoundError, SecretBox, ValidationError } from '#app/platform';
import { checkUpdate, type SettingValue } from './check-update.js';
import { FIELDS, SECRETS } from './fields.js';
import { sealSecrets } from './settings-policy.js';
import { type SettingsEvent, settingsStream } from './settings.events.js';
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
    private readonly secrets: SecretBox,
  ) {}

  async execute({ caller, body }: UpdateSettingsCommand): Promise<void> {
    const check = checkUpdate(body, caller.permissions);
    if (check.outcome === 'forbidden') throw new ForbiddenError(`You may not change: ${check.fields.join(', ')}.`);
    if (check.outcome === 'invalid') throw new ValidationError(check.errors);
    await this.checkImages(caller, check.values);
    const changes = await this.changed(caller.organisationId, check.values);
    if (Object.keys(changes).length === 0) return;
    const event: SettingsEvent = { type: 'organisation.SettingsChanged', data: { organisationId: caller.organisationId, changes: sealSecrets(changes, this.secrets) } };
    await this.store.transaction((tx) =>
      this.store.append(tx, [{ streamId: settingsStream(caller.organisationId), expectedVersion: 'any', events: [event] }], {
        organisationId: caller.organisationId,
        actorId: caller.userId,
      }),
    );
  }

  /** A logo must be an image of the caller's organisation; another organisation's file is not found. */
  private async checkImages(caller: Caller, values: Record<string, SettingValue>): Promise<void> {
    for (const [name, value] of Object.entries(values)) {
      if (FIELDS[name]!.kind.type !== 'image' || value === null) continue;
      const file = await this.files.find(caller, value as number);
      if (!file) throw new NotFoundError('File');
      if (!file.mime.startsWith('image/')) throw new ValidationError({ [name]: [`The ${name} field must name an image, not ${file.mime}.`] });
    }
  }

  /** Only what differs is recorded; a secret given is always a change (it cannot be compared). */
  private async changed(organisationId: number, values: Record<string, SettingValue>): Promise<Record<string, SettingValue>> {
    const stored = await this.views.stored(organisationId);
    const current = (name: string) => (stored.has(name) ? stored.get(name) : (FIELDS[name]!.default ?? null));
    return Object.fromEntries(Object.entries(values).filter(([name, value]) => name in SECRETS || current(name) !== value));
  }
}

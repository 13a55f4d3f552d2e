import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '#app/event-store';
import type { Caller } from '#app/identity';
import { APP_CONFIG, type AppConfig, DomainError, ValidationError } from '#app/platform';
import { type FileEvent, fileStream } from '../files.events.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { displayName, sniff } from './content-type.js';
import { makeThumbnails } from './thumbnails.js';

/** One uploaded file, owned by the caller and the caller's organisation. */
export class UploadFileCommand extends Command<number> {
  constructor(
    readonly caller: Caller,
    readonly content: Readable & { truncated?: boolean },
    readonly clientName: string | undefined,
  ) {
    super();
  }
}

@CommandHandler(UploadFileCommand)
export class UploadFileHandler implements ICommandHandler<UploadFileCommand> {
  constructor(
    private readonly store: EventStore,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ caller, content, clientName }: UploadFileCommand): Promise<number> {
    const key = `${caller.organisationId}/${randomUUID()}`;
    const written: string[] = [key];
    try {
      const size = await this.receive(key, content);
      const type = await sniff(await this.storage.localPath(key));
      if (!type) throw new ValidationError({ file: ['The file must be an image (PNG, JPEG, GIF or WebP) or a PDF; its content is neither.'] });
      const thumbnails = type.image ? await makeThumbnails(this.storage, key, type.mime) : {};
      written.push(...Object.values(thumbnails).map((t) => t.key));
      return await this.record(caller, { storageKey: key, originalName: displayName(clientName), size, mime: type.mime, thumbnails });
    } catch (err) {
      // Nothing half-stored stays behind: the bytes go with the refusal.
      await Promise.all(written.map((k) => this.storage.remove(k)));
      throw err;
    }
  }

  private async receive(key: string, content: UploadFileCommand['content']): Promise<number> {
    const tooLarge = () => new DomainError('payload_too_large', `The file is larger than ${this.config.files.uploadMaxBytes} bytes.`);
    let size: number;
    try {
      size = await this.storage.write(key, content);
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      throw err;
    }
    if (content.truncated) throw tooLarge();
    if (size === 0) throw new ValidationError({ file: ['The file is empty.'] });
    return size;
  }

  private async record(caller: Caller, file: Omit<FileEvent['data'], 'id' | 'organisationId' | 'ownerId'>): Promise<number> {
    return this.store.transaction(async (tx) => {
      const id = Number((await tx.query(`SELECT nextval('files_ids') AS id`))[0].id);
      const event: FileEvent = { type: 'files.FileUploaded', data: { id, organisationId: caller.organisationId, ownerId: caller.userId, ...file } };
      await this.store.append(tx, [{ streamId: fileStream(id), expectedVersion: 'no_stream', events: [event] }], {
        organisationId: caller.organisationId,
        actorId: caller.userId,
      });
      return id;
    });
  }
}

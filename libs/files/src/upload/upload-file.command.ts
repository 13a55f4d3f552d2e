import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { APP_CONFIG, type AppConfig, ValidationError } from '#app/platform';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { checkImage, checkPdf } from './content-check.js';
import { displayName, sniff } from './content-type.js';
import { makeThumbnails, THUMBNAIL_SIZES } from './thumbnails.js';
import { receiveUpload, type UploadPart } from './upload-parts.js';
import { uploadFileWrite } from './upload-file.write.js';

/** One uploaded file, owned by the caller and the caller's organisation, from a multipart body's parts. */
export class UploadFileCommand extends Command<number> {
  constructor(
    readonly caller: Caller,
    readonly parts: AsyncIterable<UploadPart>,
  ) {
    super();
  }
}

/** The bytes received, sniffed and checked, thumbnails made, then recorded (uploadFileWrite). */
@CommandHandler(UploadFileCommand)
export class UploadFileHandler implements ICommandHandler<UploadFileCommand> {
  constructor(
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ caller, parts }: UploadFileCommand): Promise<number> {
    const key = `${caller.organisationId}/${randomUUID()}`;
    const written: string[] = [key];
    try {
      const { received, clientName } = await receiveUpload(this.storage, key, parts, this.config.files.uploadMaxBytes);
      const { size, source } = received;
      const type = await sniff(source);
      if (!type)
        throw new ValidationError({
          file: ['The file must be an image (PNG, JPEG, GIF or WebP) or a PDF; its content is neither.'],
        });
      // The magic bytes only name a type; the content must also be one, checked before anything is recorded.
      await (type.image ? checkImage(source) : checkPdf(source, size));
      // Keys go on the list before their writes: a write that fails halfway is removed all the same.
      written.push(...Object.keys(THUMBNAIL_SIZES).map((size) => `${key}.${size}`));
      const thumbnails = type.image ? await makeThumbnails(this.storage, key, source, type.mime) : {};
      await this.storage.keep(key, received, type.mime);
      const id = Number((await this.dataSource.query(`SELECT nextval('files_ids') AS id`))[0].id);
      const file = { storageKey: key, originalName: displayName(clientName), size, mime: type.mime, thumbnails };
      const { streamId, evolve, decide, expect } = uploadFileWrite({
        id,
        organisationId: caller.organisationId,
        ownerId: caller.userId,
        file,
      });
      await this.store.handle(streamId, evolve, decide, { expect, metadata: metadataOf(caller) });
      return id;
    } catch (err) {
      // Nothing half-stored stays behind: the bytes go with the refusal.
      await Promise.all(written.map((k) => this.storage.remove(k)));
      throw err;
    }
  }
}

import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import { type Caller, metadataOf } from '#app/identity';
import { APP_CONFIG, type AppConfig, DomainError, ValidationError } from '#app/platform';
import { type FileUploaded, fileStream } from '../files.events.js';
import { FILE_STORAGE, type FileStorage, type Received } from '../storage/file-storage.js';
import { checkImage, checkPdf } from './content-check.js';
import { displayName, sniff } from './content-type.js';
import { makeThumbnails, THUMBNAIL_SIZES } from './thumbnails.js';
import { receiveFile, type UploadPart } from './upload-parts.js';

/** One uploaded file, owned by the caller and the caller's organisation, from a multipart body's parts. */
export class UploadFileCommand extends Command<number> {
  constructor(
    readonly caller: Caller,
    readonly parts: AsyncIterable<UploadPart>,
  ) {
    super();
  }
}

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
      const { received, clientName } = await this.receive(key, parts);
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
      return await this.record(caller, {
        storageKey: key,
        originalName: displayName(clientName),
        size,
        mime: type.mime,
        thumbnails,
      });
    } catch (err) {
      // Nothing half-stored stays behind: the bytes go with the refusal.
      await Promise.all(written.map((k) => this.storage.remove(k)));
      throw err;
    }
  }

  private async receive(
    key: string,
    parts: AsyncIterable<UploadPart>,
  ): Promise<{ received: Received; clientName: string | undefined }> {
    const tooLarge = () =>
      new DomainError('payload_too_large', `The file is larger than ${this.config.files.uploadMaxBytes} bytes.`);
    const write = async (content: Readable & { truncated?: boolean }) => {
      let received: Received;
      try {
        received = await this.storage.receive(key, content);
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        throw err;
      }
      if (content.truncated) throw tooLarge();
      return received;
    };
    const file = await receiveFile(parts, write, tooLarge);
    if (!file) throw new ValidationError({ file: ['The file field is required.'] });
    if (file.received.size === 0) throw new ValidationError({ file: ['The file is empty.'] });
    return file;
  }

  /** A new stream under a drawn id, appended without reading it ('no_stream'): there is no state to fold. */
  private async record(
    caller: Caller,
    file: Omit<FileUploaded['data'], 'id' | 'organisationId' | 'ownerId'>,
  ): Promise<number> {
    const id = Number((await this.dataSource.query(`SELECT nextval('files_ids') AS id`))[0].id);
    const event: FileUploaded = {
      type: 'files.FileUploaded',
      data: { id, organisationId: caller.organisationId, ownerId: caller.userId, ...file },
    };
    await this.store.handle(fileStream(id), unread, () => [event], {
      expect: 'no_stream',
      metadata: metadataOf(caller),
    });
    return id;
  }
}

/** The evolve of a stream `handle` does not read. */
const unread = (): null => null;

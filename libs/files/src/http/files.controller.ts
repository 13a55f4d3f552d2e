import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller } from '#app/identity';
import { DomainError, ForbiddenError, NotFoundError, pathId, Public } from '#app/platform';
import { FileReadRule } from '../access/file-read-rule.js';
import { FileRecords } from '../file-records.js';
import { inlineDisposition } from './content-disposition.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { UploadFileCommand } from '../upload/upload-file.command.js';
import { UrlSigner } from '../url-signer.js';

@ApiTags('files')
@Controller('api/files')
export class FilesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly files: FileRecords,
    private readonly readRule: FileReadRule,
    private readonly signer: UrlSigner,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiBearerAuth()
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiOperation({
    summary: 'Upload a file',
    description:
      'Images (PNG, JPEG, GIF, WebP) and PDFs, judged by content. Over UPLOAD_MAX_BYTES: 413. An image that does not decode, or has more than 100 megapixels, a PDF without its %%EOF marker, or more than one file part: 422 naming `file`. A malformed multipart body (no boundary, not terminated): 400. A refused upload stores nothing. `thumbnails` maps small/medium/large to signed URLs of scaled copies.',
  })
  async upload(@CurrentCaller() caller: Caller, @Req() req: FastifyRequest) {
    if (!req.isMultipart()) throw new DomainError('bad_request', 'Send the file as multipart/form-data in a field named file.');
    // Every part is read (the command iterates them): a second file is refused, not dropped.
    const parts = req.parts({ limits: { files: 1, fields: 10 } });
    const id = await this.commands.execute(new UploadFileCommand(caller, parts));
    return { data: this.files.view((await this.files.find(caller, id))!) };
  }

  @Get(':id')
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'A file of the caller’s organisation, with fresh signed URLs',
    description:
      'Readable by its uploader; by whoever may read a record it is attached to (an expense attachment: the expense’s owner and those who approve claims for them); and, ' +
      'for an organisation image (`header_logo`, `logo`), by every member. An unknown id or another organisation’s file: 404 (api.md: never a hint that it exists). ' +
      'A file of the caller’s organisation the caller may not read: 403 (api.md: a refusal by the permission or hierarchy rule).',
  })
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    const file = await this.files.find(caller, pathId(id, 'File'));
    if (!file) throw new NotFoundError('File');
    if (!(await this.readRule.mayRead(caller, file))) throw new ForbiddenError('You may not read this file.');
    return { data: this.files.view(file) };
  }

  @Public()
  @Get(':id/content')
  @ApiOperation({ summary: 'Download through a signed URL', description: 'No JWT: the signature is the permission. A tampered or expired signature is a 403.' })
  async content(
    @Param('id') id: string,
    @Query() query: Record<string, string | undefined>,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { variant = '', expires = '', signature = '' } = query;
    const fileId = pathId(id, 'File');
    const verdict = this.signer.check(fileId, variant, expires, signature);
    if (verdict !== 'ok') throw new ForbiddenError(verdict === 'expired' ? 'This link has expired.' : 'This link is not valid.');
    const file = await this.files.findSigned(fileId);
    const thumbnail = variant === 'original' ? undefined : file?.thumbnails[variant as 'small'];
    if (!file || (variant !== 'original' && !thumbnail)) throw new NotFoundError('File');
    await reply
      .type(thumbnail?.mime ?? file.mime)
      .header('content-length', String(thumbnail?.size ?? file.size))
      .header('content-disposition', inlineDisposition(file.originalName))
      .header('cache-control', 'private, max-age=3600')
      .send(this.storage.read(thumbnail?.key ?? file.storageKey));
  }
}

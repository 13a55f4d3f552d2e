import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller } from '#app/identity';
import { DomainError, ForbiddenError, NotFoundError, pathId, Public } from '#app/platform';
import { FileReadRule } from '../access/file-read-rule.js';
import { FileRecords } from '../file-records.js';
import { inlineDisposition } from './content-disposition.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { UploadFileCommand } from '../upload/upload-file.command.js';
import { UrlSigner } from '../url-signer.js';
import { SignedContentQuery } from './file.dto.js';
import { FileDto } from './file.responses.js';
import { FilesDocs } from './files.openapi.js';

@FilesDocs.controller()
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
  @FilesDocs.upload()
  async upload(@CurrentCaller() caller: Caller, @Req() req: FastifyRequest): Promise<{ data: FileDto }> {
    if (!req.isMultipart())
      throw new DomainError('bad_request', 'Send the file as multipart/form-data in a field named file.');
    // Every part is read (the command iterates them): a second file is refused, not dropped.
    const parts = req.parts({ limits: { files: 1, fields: 10 } });
    const id = await this.commands.execute(new UploadFileCommand(caller, parts));
    return { data: this.files.view((await this.files.find(caller, id))!) };
  }

  @Get(':id')
  @FilesDocs.get()
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<{ data: FileDto }> {
    const file = await this.files.find(caller, pathId(id, 'File'));
    if (!file) throw new NotFoundError('File');
    if (!(await this.readRule.mayRead(caller, file))) throw new ForbiddenError('You may not read this file.');
    return { data: this.files.view(file) };
  }

  @Public()
  @Get(':id/content')
  @FilesDocs.content()
  async content(
    @Param('id') id: string,
    @Query() query: SignedContentQuery,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { variant, expires, signature } = query;
    const fileId = pathId(id, 'File');
    const verdict = this.signer.check(fileId, variant, expires, signature);
    if (verdict !== 'ok')
      throw new ForbiddenError(verdict === 'expired' ? 'This link has expired.' : 'This link is not valid.');
    const file = await this.files.findSigned(fileId);
    const thumbnail = variant === 'original' ? undefined : file?.thumbnails[variant as 'small'];
    if (!file || (variant !== 'original' && !thumbnail)) throw new NotFoundError('File');
    await reply
      .type(thumbnail?.mime ?? file.mime)
      .header('content-length', String(thumbnail?.size ?? file.size))
      .header('content-disposition', inlineDisposition(file.originalName))
      .header('cache-control', 'private, max-age=3600')
      .send(await this.storage.read(thumbnail?.key ?? file.storageKey));
  }
}

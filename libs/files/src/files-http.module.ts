import { Module } from '@nestjs/common';
import { FilesModule } from './files.module.js';
import { FilesController } from './http/files.controller.js';

@Module({ imports: [FilesModule], controllers: [FilesController] })
export class FilesHttpModule {}

import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '#app/platform';
import { FileRecords } from './file-records.js';
import { FilesProjection } from './files.projection.js';
import { FILE_STORAGE } from './storage/file-storage.js';
import { LocalFileStorage } from './storage/local-file-storage.js';
import { UploadFileHandler } from './upload/upload-file.command.js';
import { UrlSigner } from './url-signer.js';

@Module({
  providers: [
    { provide: FILE_STORAGE, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new LocalFileStorage(join(config.files.dir)) },
    UrlSigner,
    FileRecords,
    FilesProjection,
    UploadFileHandler,
  ],
  exports: [FileRecords, UrlSigner, FILE_STORAGE],
})
export class FilesModule {}

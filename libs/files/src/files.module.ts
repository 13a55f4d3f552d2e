import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { IdentityModule } from '#app/identity';
import { APP_CONFIG, type AppConfig } from '#app/platform';
import { FileReadRule } from './access/file-read-rule.js';
import { FileDeletionReactor } from './deletion/file-deletion.reactor.js';
import { FileObjectsProjection } from './deletion/file-objects.projection.js';
import { FileReferencesProjection } from './access/file-references.projection.js';
import { FileRecords } from './file-records.js';
import { FilesProjection } from './files.projection.js';
import { FILE_STORAGE } from './storage/file-storage.js';
import { LocalFileStorage } from './storage/local-file-storage.js';
import { S3FileStorage, s3Client } from './storage/s3-file-storage.js';
import { UploadFileHandler } from './upload/upload-file.command.js';
import { UrlSigner } from './url-signer.js';
// Declares which fields of files's events are whose personal data (sealed in the log).
import './files.personal-data.js';

@Module({
  imports: [IdentityModule],
  providers: [
    {
      provide: FILE_STORAGE,
      inject: [APP_CONFIG],
      useFactory: ({ files }: AppConfig) =>
        files.s3 ? new S3FileStorage(s3Client(files.s3), files.s3.bucket) : new LocalFileStorage(join(files.dir)),
    },
    UrlSigner,
    FileRecords,
    FilesProjection,
    FileReferencesProjection,
    FileObjectsProjection,
    FileDeletionReactor,
    FileReadRule,
    UploadFileHandler,
  ],
  exports: [FileRecords, FileReadRule, UrlSigner, FILE_STORAGE],
})
export class FilesModule {}

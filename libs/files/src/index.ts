export { FilesModule } from './files.module.js';
export { FilesHttpModule } from './files-http.module.js';
export { FileRecords, type FileRecord, type FileView } from './file-records.js';
export { UrlSigner } from './url-signer.js';
export { FileReadRule } from './access/file-read-rule.js';
export { AttachmentDto, FileDto, ImageDto, ThumbnailsDto } from './http/file.responses.js';
export { s3Client, S3FileStorage } from './storage/s3-file-storage.js';
export { bucketProblem, copyFilesToBucket, type CopyReport, describeS3Error } from './storage/copy-to-bucket.js';

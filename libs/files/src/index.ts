export { FilesModule } from './files.module.js';
export { FilesHttpModule } from './files-http.module.js';
export { FileRecords, type FileRecord, type FileView } from './file-records.js';
export { UrlSigner } from './url-signer.js';
export { FileReadRule } from './access/file-read-rule.js';
export { AttachmentDto, FileDto, ImageDto, ThumbnailsDto } from './http/file.responses.js';

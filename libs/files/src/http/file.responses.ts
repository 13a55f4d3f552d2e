import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { FileView } from '../file-records.js';

/*
 * Response schemas of the records the files context owns: an uploaded file, an expense's
 * attachment (the same record under the interface's name) and the interface's Image (an
 * organisation's logo: no signed_url); docs/http-conventions.md#files-and-images. Other contexts
 * embed them through `#app/files`. Named `UploadedFile` and `ImageFile`, not `File` and `Image`: a
 * generated client's type would shadow the browser's (docs/http-conventions.md#generated-clients).
 */

const ID = { type: 'integer', format: 'int64', minimum: 1 } as const;
const SIGNED = {
  type: 'string',
  format: 'uri',
  example: 'https://volunteers.example/api/files/7/content?variant=small&expires=1767225600&signature=3q2-7w',
} as const;

/** Signed URLs of an image's thumbnails, by size; a size the image is not larger than is absent. */
@ApiSchema({
  name: 'Thumbnails',
  description:
    'Signed URLs (an hour) of the scaled copies, by size; empty for documents and for images smaller than every size',
})
export class ThumbnailsDto {
  @ApiProperty({ ...SIGNED, required: false, description: 'Longest side 64 px' }) small?: string;
  @ApiProperty({ ...SIGNED, required: false, description: 'Longest side 256 px' }) medium?: string;
  @ApiProperty({ ...SIGNED, required: false, description: 'Longest side 1024 px' }) large?: string;
}

/**
 * The interface's Image: a file as an organisation's logo shows it (no download URL of the original);
 * docs/http-conventions.md#files-and-images.
 */
@ApiSchema({ name: 'ImageFile', description: 'The spec’s Image (file reference)' })
export class ImageDto implements Omit<FileView, 'signed_url'> {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string' }) original_name!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Bytes' }) file_size!: number;
  @ApiProperty({
    type: 'string',
    enum: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'],
    description: 'Judged by the content, not the name',
  })
  mime!: string;
  @ApiProperty({ type: 'string', description: 'Empty: uploads take no description yet' }) description!: string;
  @ApiProperty({ type: ThumbnailsDto }) thumbnails!: ThumbnailsDto;
}

/** An uploaded file, with fresh signed URLs (POST /api/files, GET /api/files/{id}). */
@ApiSchema({ name: 'UploadedFile', description: 'An uploaded file with fresh signed URLs' })
export class FileDto extends ImageDto implements FileView {
  @ApiProperty({ ...SIGNED, description: 'Signed download URL of the original: needs no JWT, expires in an hour' })
  signed_url!: string;
}

/**
 * The interface's Attachment: a file of an expense, with fresh signed URLs
 * (docs/http-conventions.md#files-and-images).
 */
@ApiSchema({ name: 'Attachment', description: 'The spec’s Attachment: a file of an expense' })
export class AttachmentDto extends FileDto {}

import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { FileView } from '#app/files';
import type { RoleProfileView, RoleView, UserBase } from '#app/identity';

/*
 * Response schemas of records other contexts own that expenses and claims embed (`include=user`,
 * `role`, `attachments`, and the authorisers list). Each implements the owner's view type, so a
 * field added there is a type error here until the schema says it too.
 */

const ID = { type: 'integer', format: 'int64', minimum: 1 } as const;

@ApiSchema({ name: 'UserStatus' })
export class UserStatusDto {
  @ApiProperty({ type: 'string', enum: ['active', 'on_hold'] }) id!: string;
  @ApiProperty({ type: 'string', example: 'Active' }) name!: string;
  @ApiProperty({ type: 'boolean' }) contactable!: boolean;
}

/** The spec's UserBase: how one user appears inside another record. */
@ApiSchema({ name: 'UserBase', description: 'User summary (the spec’s UserBase)' })
export class UserBaseDto implements UserBase {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string' }) display_name!: string;
  @ApiProperty({ type: 'string', nullable: true }) title!: string | null;
  @ApiProperty({ type: 'string', format: 'uri', nullable: true, description: 'No photos are stored yet: always null' }) profile_photo_url!: string | null;
  @ApiProperty({ type: 'boolean', description: 'Whether the caller manages this user (through the permission of the list or record)' }) can_manage!: boolean;
  @ApiProperty({ type: 'string', nullable: true, description: 'Role profile of the user’s first role' }) role_name!: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'Team of the user’s first role' }) team_name!: string | null;
  @ApiProperty({ type: UserStatusDto }) status!: UserStatusDto;
}

@ApiSchema({ name: 'RoleProfile' })
export class RoleProfileDto implements RoleProfileView {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string' }) name!: string;
}

/** A role: one user in one team with one role profile; `roleProfile` with `include=role.roleProfile`. */
@ApiSchema({ name: 'Role' })
export class RoleDto implements RoleView {
  @ApiProperty(ID) id!: number;
  @ApiProperty(ID) user_id!: number;
  @ApiProperty(ID) team_id!: number;
  @ApiProperty({ type: 'string' }) team_name!: string;
  @ApiProperty(ID) role_profile_id!: number;
  @ApiPropertyOptional({ type: RoleProfileDto, description: 'With include=role.roleProfile' }) roleProfile?: RoleProfileDto;
}

/** Signed URLs of an image's thumbnails, by size; a size larger than the image is absent. */
@ApiSchema({ name: 'AttachmentThumbnails' })
export class ThumbnailsDto {
  @ApiPropertyOptional({ type: 'string', format: 'uri', description: 'Longest side 64 px' }) small?: string;
  @ApiPropertyOptional({ type: 'string', format: 'uri', description: 'Longest side 256 px' }) medium?: string;
  @ApiPropertyOptional({ type: 'string', format: 'uri', description: 'Longest side 1024 px' }) large?: string;
}

/** The spec's Attachment: a file of an expense, with fresh signed URLs. */
@ApiSchema({ name: 'Attachment' })
export class AttachmentDto implements FileView {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string' }) original_name!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Bytes' }) file_size!: number;
  @ApiProperty({ type: 'string', example: 'application/pdf' }) mime!: string;
  @ApiProperty({ type: 'string' }) description!: string;
  @ApiProperty({ type: ThumbnailsDto, description: 'Empty for documents and for images smaller than every size' }) thumbnails!: ThumbnailsDto;
  @ApiProperty({ type: 'string', format: 'uri', description: 'Signed download URL of the original; needs no JWT, expires' }) signed_url!: string;
}

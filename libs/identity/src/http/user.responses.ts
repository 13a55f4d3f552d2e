import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { RoleProfileView, RoleView } from '../hierarchy/roles.js';
import type { UserBase } from '../hierarchy/user-base.js';
import { PERMISSIONS, USER_STATUSES } from '../permissions.js';

/*
 * Response schemas of the records identity owns: how a user and a role appear in this context's
 * answers and inside other contexts' records (`include=user`, `role`, the authorisers list). Each
 * implements the view type it documents, so a field added there is a type error here until the
 * schema says it too.
 */

const ID = { type: 'integer', format: 'int64', minimum: 1 } as const;

@ApiSchema({ name: 'UserStatus' })
export class UserStatusDto {
  @ApiProperty({ type: 'string', enum: [...USER_STATUSES, 'anonymised'] }) id!: string;
  @ApiProperty({ type: 'string', example: 'Active' }) name!: string;
  @ApiProperty({ type: 'boolean' }) contactable!: boolean;
}

/** The interface's UserBase: how one user appears inside another record (docs/http-conventions.md#user-summary). */
@ApiSchema({ name: 'UserBase', description: 'User summary (the spec’s UserBase)' })
export class UserBaseDto implements UserBase {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string' }) display_name!: string;
  @ApiProperty({ type: 'string', nullable: true }) title!: string | null;
  @ApiProperty({ type: 'string', format: 'uri', nullable: true, description: 'No photos are stored yet: always null' })
  profile_photo_url!: string | null;
  @ApiProperty({
    type: 'boolean',
    description: 'Whether the caller manages this user (through the permission of the list or record)',
  })
  can_manage!: boolean;
  @ApiProperty({ type: 'string', nullable: true, description: 'Role profile of the user’s first role' }) role_name!:
    string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'Team of the user’s first role' }) team_name!:
    string | null;
  @ApiProperty({ type: UserStatusDto }) status!: UserStatusDto;
}

/** `GET /api/users/me`: the caller as a UserBase, with the permissions its roles give it. */
@ApiSchema({ name: 'CurrentUser', description: 'The caller: a UserBase with its permissions' })
export class CurrentUserDto extends UserBaseDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', enum: [...PERMISSIONS] },
    description: 'The permissions the caller’s roles give, sorted',
  })
  permissions!: string[];
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
  @ApiPropertyOptional({ type: RoleProfileDto, description: 'With include=role.roleProfile' })
  roleProfile?: RoleProfileDto;
}

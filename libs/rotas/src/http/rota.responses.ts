import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { TeamObject } from '#app/identity';
import type { RotaPermissions } from '../rotas.policy.js';
import type { RotaSummaryView, RotaTeamEntryView, RotaView } from '../rota/rota.queries.js';
import { ContactDto } from './contact.responses.js';

const ID = { type: 'integer', format: 'int64', minimum: 1 } as const;
const DATE = { type: 'string', format: 'date', example: '2027-01-04' } as const;
const COLOUR = { type: 'string', pattern: '^#[0-9a-fA-F]{6}$', example: '#1f77b4' } as const;
const SAME_DAY = (what: string) =>
  ({
    type: 'boolean',
    description: `A self-managing volunteer may ${what} their own shift on the current day (binds only while self_manage is true)`,
  }) as const;

/**
 * The interface's Team object as rota and shift records embed it: `id` a string, unset fields empty strings
 * or false (docs/http-conventions.md#team-object).
 */
@ApiSchema({
  name: 'Team',
  description: 'The spec’s Team object: `id` is a string; fields the organisation never set are empty strings or false',
})
export class TeamDto implements TeamObject {
  @ApiProperty({
    type: 'string',
    pattern: '^[0-9]+$',
    description: 'The team id, as a string (the spec declares it so)',
  })
  id!: string;
  @ApiProperty({ ...ID, nullable: true, description: 'null for a root team' }) parent_id!: number | null;
  @ApiProperty({ type: 'string' }) name!: string;
  @ApiProperty({ type: 'string' }) description!: string;
  @ApiProperty({ type: 'string' }) geo_location!: string;
  @ApiProperty({ type: 'string' }) catchment_area_id!: string;
  @ApiProperty({ type: 'string' }) icon!: string;
  @ApiProperty({ type: 'boolean' }) show_on_public_site!: boolean;
  @ApiProperty({ type: 'boolean' }) ceiling_enabled!: boolean;
  @ApiProperty({ type: 'boolean' }) hidden!: boolean;
  @ApiProperty({ type: 'boolean' }) disabled!: boolean;
}

/**
 * The interface's Rota permissions object, for the caller and one rota
 * (docs/rota-domain.md#the-rota-permissions-object).
 */
@ApiSchema({
  name: 'RotaPermissions',
  description: 'What the caller may do on the rota (the spec’s Rota permissions object)',
})
export class RotaPermissionsDto implements RotaPermissions {
  @ApiProperty({ type: 'boolean', description: 'The caller sees the rota (a role in its team or a team above it)' })
  can_view_rota!: boolean;
  @ApiProperty({
    type: 'boolean',
    description: 'Sees it, is not on hold, and the rota is self-managed or the caller manages it',
  })
  can_add_shifts_to_self!: boolean;
  @ApiProperty({ type: 'boolean', description: 'add-user-shifts or manage-rotas over the rota’s team' })
  can_add_shifts_to_others!: boolean;
  @ApiProperty({ type: 'boolean', description: 'As can_add_shifts_to_others' }) can_edit_other_shifts!: boolean;
  @ApiProperty({ type: 'boolean', description: 'As can_add_shifts_to_others' }) can_cancel_other_shifts!: boolean;
  @ApiProperty({ type: 'boolean', description: 'manage-rotas over the rota’s team' }) can_override_rota!: boolean;
  @ApiProperty({
    type: 'array',
    items: ID,
    description: 'The allowed role profile ids when restricted_by_role, else empty',
  })
  allowed_roles!: number[];
  @ApiProperty(SAME_DAY('add')) allow_same_day_add!: boolean;
  @ApiProperty(SAME_DAY('cancel')) allow_same_day_cancel!: boolean;
  @ApiProperty(SAME_DAY('edit')) allow_same_day_edit!: boolean;
}

/**
 * The interface's Rota (administration view) plus our additions (pattern_id, self_manage, the same-day
 * flags, restricted_by_role, role_profiles, require_full_timeslot; docs/rota-domain.md#record-shapes).
 * `team`, `permissions` and `contacts` are present only when `include` names them.
 */
@ApiSchema({ name: 'Rota', description: 'A rota (administration view)' })
export class RotaDto implements RotaView {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string' }) name!: string;
  @ApiProperty({ ...DATE, description: 'First day' }) start!: string;
  @ApiProperty({ ...DATE, nullable: true, description: 'Last day (inclusive); null: open-ended' }) end!: string | null;
  @ApiProperty(ID) team_id!: number;
  @ApiProperty({ type: 'string' }) team_name!: string;
  @ApiProperty({ type: 'boolean' }) archived!: boolean;
  @ApiProperty(COLOUR) colour!: string;
  @ApiProperty({ ...ID, description: 'Addition: the pattern the rota was made from (or last replaced with)' })
  pattern_id!: number;
  @ApiProperty({ type: 'boolean', description: 'Addition: volunteers may book their own shifts' })
  self_manage!: boolean;
  @ApiProperty(SAME_DAY('add')) allow_same_day_add!: boolean;
  @ApiProperty(SAME_DAY('cancel')) allow_same_day_cancel!: boolean;
  @ApiProperty(SAME_DAY('edit')) allow_same_day_edit!: boolean;
  @ApiProperty({ type: 'boolean', description: 'Addition: only users holding a role of role_profiles may be booked' })
  restricted_by_role!: boolean;
  @ApiProperty({ type: 'array', items: ID, description: 'Addition: role profile ids, ascending' })
  role_profiles!: number[];
  @ApiProperty({ type: 'boolean', description: 'Addition: a shift must cover its whole timeslot' })
  require_full_timeslot!: boolean;
  @ApiPropertyOptional({ type: TeamDto, nullable: true, description: 'With include=team' }) team?: TeamDto | null;
  @ApiPropertyOptional({ type: RotaPermissionsDto, description: 'With include=permissions' })
  permissions?: RotaPermissionsDto;
  @ApiPropertyOptional({
    type: [ContactDto],
    description: 'With include=contacts: the rota’s contacts, in the order added',
  })
  contacts?: ContactDto[];
}

/** The update answer, and a rota of a Rota team entry. */
@ApiSchema({
  name: 'RotaSummary',
  description: 'A rota in short: the update answer and the rotas of a Rota team entry',
})
export class RotaSummaryDto implements RotaSummaryView {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string' }) name!: string;
  @ApiProperty(DATE) start!: string;
  @ApiProperty({ ...DATE, nullable: true, description: 'null: open-ended' }) end!: string | null;
  @ApiProperty(COLOUR) colour!: string;
  @ApiProperty({ type: 'boolean', description: 'The rota’s self_manage' }) self_manage_allowed!: boolean;
  @ApiProperty(SAME_DAY('add')) allow_same_day_add!: boolean;
  @ApiProperty(SAME_DAY('cancel')) allow_same_day_cancel!: boolean;
  @ApiProperty(SAME_DAY('edit')) allow_same_day_edit!: boolean;
}

/** The interface's Rota team entry (docs/rota-domain.md#rotas-by-team). */
@ApiSchema({ name: 'RotaTeamEntry', description: 'A team the caller sees, with its matching rotas (no status)' })
export class RotaTeamEntryDto implements RotaTeamEntryView {
  @ApiProperty({ ...ID, description: 'The team id' }) id!: number;
  @ApiProperty({ type: 'string' }) name!: string;
  @ApiProperty({ type: 'string', description: 'The team’s icon; empty when unset' }) icon!: string;
  @ApiProperty({ type: [RotaSummaryDto], description: 'By name, then id' }) rotas!: RotaSummaryDto[];
}

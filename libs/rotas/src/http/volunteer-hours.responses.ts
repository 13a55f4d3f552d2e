import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { HoursRow } from '../hours/volunteer-hours.queries.js';
import { GROUPINGS, type Grouping } from './volunteer-hours.dto.js';

const COUNT = { type: 'integer', minimum: 0 } as const;
const DATE = { type: 'string', format: 'date', example: '2027-03-01' } as const;

/** One group of the volunteer hours report (docs/rota-domain.md#volunteer-hours). */
@ApiSchema({ name: 'VolunteerHoursRow' })
export class VolunteerHoursRowDto implements HoursRow {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1, description: 'The user’s, team’s or rota’s id' })
  id!: number;
  @ApiProperty({ type: 'string', description: 'The user’s display name, the team’s or the rota’s name' })
  name!: string;
  @ApiProperty({ ...COUNT, description: 'Counted shifts: booked, not cancelled, started, dated in the range' })
  shifts!: number;
  @ApiProperty({ ...COUNT, description: 'Of them, recorded attended' }) attended!: number;
  @ApiProperty({ ...COUNT, description: 'Of them, recorded no_show' }) no_show!: number;
  @ApiProperty({ ...COUNT, description: 'Of them, with no attendance recorded' }) unrecorded!: number;
  @ApiProperty({
    ...COUNT,
    description: 'The counted shifts’ scheduled lengths in real minutes (an autumn night counts its extra hour)',
  })
  booked_minutes!: number;
  @ApiProperty({ ...COUNT, description: 'The minutes of their attended records (the times actually worked)' })
  attended_minutes!: number;
}

@ApiSchema({ name: 'VolunteerHoursMeta' })
export class VolunteerHoursMetaDto {
  @ApiProperty({ ...DATE, description: 'The first date counted' }) start_date!: string;
  @ApiProperty({ ...DATE, description: 'The last date counted (inclusive)' }) end_date!: string;
  @ApiProperty({ type: 'string', enum: [...GROUPINGS] }) group_by!: Grouping;
}

@ApiSchema({ name: 'VolunteerHoursReport' })
export class VolunteerHoursReportDto {
  @ApiProperty({ type: [VolunteerHoursRowDto], description: 'Ordered by name (case-insensitive), then id' })
  data!: VolunteerHoursRowDto[];
  @ApiProperty({ type: VolunteerHoursMetaDto }) meta!: VolunteerHoursMetaDto;
}

/** The CSV's columns, in order (its header line). */
export const HOURS_CSV_COLUMNS = [
  'id',
  'name',
  'shifts',
  'attended',
  'no_show',
  'unrecorded',
  'booked_minutes',
  'attended_minutes',
] as const satisfies readonly (keyof HoursRow)[];

import { ApiExtraModels, ApiProperty, ApiSchema, getSchemaPath, OmitType } from '@nestjs/swagger';
import { ClaimDto, ExpenseDto } from '#app/expenses';
import { UserBaseDto, UserStatusDto } from '#app/identity';
import { AttendanceDto, ShiftDto } from '#app/rotas';
import type { PersonalData } from '../personal-data-export.js';

/*
 * The personal-data export (docs/privacy.md#access-and-portability). Records are the routes' own
 * (Shift, Expense, Claim); another person in them appears as a PersonRef.
 */

const ID = { type: 'integer', format: 'int64', minimum: 1 } as const;
const DATE_TIME = { type: 'string', format: 'date-time' } as const;

@ApiSchema({ name: 'PersonRef', description: 'Another person, by id only' })
export class PersonRefDto {
  @ApiProperty(ID) id!: number;
}

@ApiSchema({ name: 'PersonalDataUser', description: 'The user’s own record: no password hash, no second-factor key' })
export class PersonalDataUserDto implements Omit<PersonalData['user'], 'status'> {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string', format: 'email', nullable: true, description: 'null once anonymised' })
  email!: string | null;
  @ApiProperty({ type: 'string' }) display_name!: string;
  @ApiProperty({ type: 'string', nullable: true }) title!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) phone!: string | null;
  @ApiProperty({ type: UserStatusDto }) status!: UserStatusDto;
  @ApiProperty({
    type: 'string',
    nullable: true,
    enum: ['email', 'sms', 'auth_app', 'magic_link', null],
    description: 'The second-factor method, null for none (its secret never)',
  })
  two_factor!: string | null;
  @ApiProperty({ ...DATE_TIME, description: 'When the user was registered' }) created_at!: string;
}

@ApiSchema({ name: 'PersonalDataNamed' })
export class NamedDto {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string' }) name!: string;
}

@ApiSchema({ name: 'PersonalDataRole', description: 'One of the user’s roles' })
export class PersonalDataRoleDto {
  @ApiProperty({ type: NamedDto }) team!: NamedDto;
  @ApiProperty({ type: NamedDto }) role_profile!: NamedDto;
}

@ApiExtraModels(UserBaseDto, PersonRefDto)
@ApiSchema({
  name: 'PersonalDataAttendance',
  description: 'A shift’s attendance; who recorded it by id unless the user',
})
export class PersonalDataAttendanceDto extends OmitType(AttendanceDto, ['recorded_by'] as const) {
  @ApiProperty({
    oneOf: [{ $ref: getSchemaPath(UserBaseDto) }, { $ref: getSchemaPath(PersonRefDto) }],
    description: 'Who recorded it: the user themself as a UserBase, anyone else by id',
  })
  recorded_by!: UserBaseDto | PersonRefDto;
}

@ApiSchema({
  name: 'PersonalDataShift',
  description: 'A shift ever booked for the user (the Shift record), cancelled ones included',
})
export class PersonalDataShiftDto extends OmitType(ShiftDto, ['attendance'] as const) {
  @ApiProperty({ type: PersonalDataAttendanceDto, nullable: true, description: 'null until recorded' })
  attendance!: PersonalDataAttendanceDto | null;
  @ApiProperty({ ...DATE_TIME, nullable: true, description: 'When it was cancelled; null while booked' })
  cancelled_at!: string | null;
}

@ApiSchema({ name: 'PersonalDataFile', description: 'A file the user uploaded' })
export class PersonalDataFileDto {
  @ApiProperty(ID) id!: number;
  @ApiProperty({ type: 'string', description: 'Its original name' }) name!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Bytes' }) size!: number;
  @ApiProperty(DATE_TIME) created_at!: string;
}

@ApiSchema({ name: 'PersonalDataLogin', description: 'A log-in (a session started)' })
export class PersonalDataLoginDto {
  @ApiProperty(DATE_TIME) at!: string;
}

@ApiSchema({ name: 'PersonalDataCalendarFeed', description: 'A live calendar feed (its token never)' })
export class PersonalDataCalendarFeedDto {
  @ApiProperty(DATE_TIME) created_at!: string;
}

@ApiSchema({
  name: 'PersonalData',
  description:
    'Everything the service holds about one user (docs/privacy.md#access-and-portability); other people by id only, no secrets',
})
export class PersonalDataDto {
  @ApiProperty({ type: PersonalDataUserDto }) user!: PersonalDataUserDto;
  @ApiProperty({ type: [PersonalDataRoleDto] }) roles!: PersonalDataRoleDto[];
  @ApiProperty({ type: [PersonalDataShiftDto], description: 'By start, then id' }) shifts!: PersonalDataShiftDto[];
  @ApiProperty({ type: [ExpenseDto], description: 'By date, then id' }) expenses!: ExpenseDto[];
  @ApiProperty({ type: [ClaimDto], description: 'Oldest first' }) claims!: ClaimDto[];
  @ApiProperty({ type: [PersonalDataFileDto], description: 'Oldest first' }) files!: PersonalDataFileDto[];
  @ApiProperty({ type: [PersonalDataLoginDto], description: 'Oldest first; no network address or agent is kept' })
  logins!: PersonalDataLoginDto[];
  @ApiProperty({ type: [PersonalDataCalendarFeedDto] }) calendar_feeds!: PersonalDataCalendarFeedDto[];
  @ApiProperty({ ...DATE_TIME, description: 'When this answer was made' }) generated_at!: string;
}

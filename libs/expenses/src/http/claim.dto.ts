import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';
import {
  calendarDateMessage,
  IdRef,
  isCalendarDate,
  IsDateTimeWithOffset,
  IsOptionalNotNull,
  IsReference,
  parseBooleanQuery,
  parseIdList,
  parseListQuery,
  type RawQuery,
  ValidationError,
} from '#app/platform';
import {
  CLAIM_INCLUDES,
  CLAIM_SORTS,
  type ClaimFilters,
  type ClaimInclude,
  type ClaimListQuery,
} from '../claim/claim.queries.js';

// Nullable optional fields use @IsOptional() (absent or null); the others @IsOptionalNotNull().

export class CreateClaimBody {
  @ApiProperty({ type: IdRef, description: 'One of the caller’s authorisers' })
  @IsDefined()
  @IsReference()
  assignedTo!: IdRef;
  @ApiPropertyOptional() @IsOptionalNotNull() @IsString() @MaxLength(5000) notes?: string;
  @ApiProperty({ type: [IdRef], description: 'Unclaimed expenses of the caller, all of one role' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @IsReference({ each: true })
  expenses!: IdRef[];
}

export class UpdateClaimBody {
  @ApiPropertyOptional({ type: IdRef }) @IsOptionalNotNull() @IsReference() assignedTo?: IdRef;
  @ApiPropertyOptional() @IsOptionalNotNull() @IsString() @MaxLength(5000) notes?: string;
  @ApiPropertyOptional({
    minLength: 1,
    description: 'The reason for rejecting an open claim (not blank); its expenses become unclaimed',
  })
  @IsOptionalNotNull()
  @IsString()
  @Matches(/\S/, { message: 'The rejection_note field must give the reason for the rejection; it may not be blank.' })
  @MaxLength(5000)
  rejection_note?: string;
  @ApiPropertyOptional({
    description: 'true approves (approve-claims over the owner, or self-approve-claims for one’s own)',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  approved?: boolean;
  @ApiPropertyOptional({ type: 'string', nullable: true }) @IsOptional() @IsString() @MaxLength(5000) approval_note?:
    string | null;
  @ApiPropertyOptional({
    description: 'true submits an approved claim to the organisation’s expenses_submission_email',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  submitted?: boolean;
  @ApiPropertyOptional({ format: 'date-time', description: 'Defaults to now' })
  @IsOptionalNotNull()
  @IsDateTimeWithOffset()
  submitted_date?: string;
}

export const CLAIM_LIST_SPEC = { sorts: CLAIM_SORTS, includes: CLAIM_INCLUDES, defaultDirection: 'desc' as const };
export const USER_CLAIM_LIST_SPEC = {
  sorts: ['created_at'] as const,
  includes: CLAIM_INCLUDES,
  defaultDirection: 'desc' as const,
};

/** approved, submitted, user, assignee, from, to: each checked in that order, the first bad one a 422. */
function claimFilters(query: RawQuery): ClaimFilters {
  const f: ClaimFilters = {
    approved: parseBooleanQuery(query, 'approved'),
    submitted: parseBooleanQuery(query, 'submitted'),
    users: parseIdList(query, 'user'),
    assignees: parseIdList(query, 'assignee'),
  };
  for (const key of ['from', 'to'] as const) {
    const value = query[key];
    if (value === undefined) continue;
    if (!isCalendarDate(value)) throw new ValidationError({ [key]: [calendarDateMessage(key)] });
    f[key] = value;
  }
  return f;
}

/** `GET /api/claims` and its CSV export: the list query of CLAIM_LIST_SPEC, then the filters. */
export class ManagedClaimsQuery {
  static readonly listParameters = ['user', 'assignee'];
  readonly list!: ClaimListQuery;
  readonly filters!: ClaimFilters;

  static fromQuery(query: RawQuery): ManagedClaimsQuery {
    const list = parseListQuery(query, CLAIM_LIST_SPEC);
    return { list: { ...list, sort: list.sort! }, filters: claimFilters(query) };
  }
}

/** `GET /api/users/{userId}/claims`: by created_at; submitted, from and to filter. */
export class UserClaimsQuery {
  static readonly listParameters = ['user', 'assignee'];
  readonly list!: ClaimListQuery;
  readonly filters!: Pick<ClaimFilters, 'submitted' | 'from' | 'to'>;

  static fromQuery(query: RawQuery): UserClaimsQuery {
    const list = parseListQuery(query, USER_CLAIM_LIST_SPEC);
    // approved, user and assignee are checked as on the managed list, but filter nothing here.
    const { approved: _a, users: _u, assignees: _s, ...filters } = claimFilters(query);
    return { list: { ...list, sort: 'created_at' }, filters };
  }
}

/** `include` of one claim. */
export class ClaimIncludeQuery {
  readonly include!: ReadonlySet<ClaimInclude>;

  static fromQuery(query: RawQuery): ClaimIncludeQuery {
    return { include: parseListQuery(query, { includes: CLAIM_INCLUDES }).include };
  }
}

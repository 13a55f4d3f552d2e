import { applyDecorators } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import {
  ApiBooleanQuery,
  ApiErrors,
  ApiIdListQuery,
  ApiIdParam,
  ApiIncludeQuery,
  ApiListQuery,
  ApiPaginated,
  ApiDocs,
} from '#app/platform';
import { CLAIM_INCLUDES, CLAIM_SORTS } from '../claim/claim.queries.js';
import { CLAIM_LIST_SPEC, USER_CLAIM_LIST_SPEC } from './claim.dto.js';
import { ClaimDto } from './claim.responses.js';
import { CLAIM_CSV_COLUMNS } from '../claim/claim-csv.js';

/** The query filters ManagedClaimsQuery and UserClaimsQuery read (claim.dto.ts), for the document. */
const ApiSubmittedQuery = () =>
  ApiBooleanQuery('submitted', 'Only submitted (true) or unsubmitted (false) claims; absent: both');

const ApiCreatedRangeQuery = () =>
  applyDecorators(
    ApiQuery({
      name: 'from',
      required: false,
      description: 'Claims created on or after this day',
      schema: { type: 'string', format: 'date' },
    }),
    ApiQuery({
      name: 'to',
      required: false,
      description: 'Claims created on or before this day',
      schema: { type: 'string', format: 'date' },
    }),
  );

const ApiManagedFilters = () =>
  applyDecorators(
    ApiBooleanQuery('approved', 'Only approved (true) or unapproved (false) claims; absent: both'),
    ApiSubmittedQuery(),
    ApiIdListQuery('user', 'Comma-separated owner ids'),
    ApiIdListQuery('assignee', 'Comma-separated authoriser ids'),
    ApiCreatedRangeQuery(),
  );

/** What the OpenAPI document says of ClaimsController: one composed decorator per route. */
export const ClaimsDocs = {
  controller: () => ApiDocs(ApiTags('claims'), ApiBearerAuth()),
  managed: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'listManagedClaims',
        summary: 'List claims of managed users',
        description:
          'Permission: approve-claims; the claims of the users the caller manages through it. Filters ' +
          'approved, submitted, user, assignee (comma-separated ids), ' +
          'from, to; s: created_at (default), amount, approved_at, assignedTo, authorised_user_id, submitted_date, user; o: a|d (default d).',
      }),
      ApiListQuery(CLAIM_LIST_SPEC),
      ApiManagedFilters(),
      ApiPaginated(ClaimDto),
      ApiErrors(400, 401, 403, 406, 422),
    ),
  export: () =>
    ApiDocs(
      ApiProduces('text/csv'),
      ApiOperation({
        operationId: 'exportClaims',
        summary: 'Export claims as CSV',
        description:
          'Permission: approve-claims. Not in the interface spec: one row per claimed expense, with the managed list’s filters and sort (no paging). ' +
          'Answers text/csv: an Accept naming only JSON is a 406.',
      }),
      ApiQuery({
        name: 's',
        required: false,
        description: 'Sort column',
        schema: { type: 'string', enum: [...CLAIM_SORTS], default: 'created_at' },
      }),
      ApiQuery({
        name: 'o',
        required: false,
        description: 'Direction: a/asc ascending, d/desc descending',
        schema: { type: 'string', enum: ['a', 'd', 'asc', 'desc'], default: 'd' },
      }),
      ApiManagedFilters(),
      ApiOkResponse({
        description: 'The CSV file (attachment claims.csv)',
        schema: { type: 'string', description: `Columns: ${CLAIM_CSV_COLUMNS.join(', ')}` },
      }),
      ApiErrors(400, 401, 403, 406, 422),
    ),
  create: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'createClaim',
        summary: 'Create claim',
        description:
          'Permission: create-expenses. Owned by the caller; answers the claim (with id and a Location header).',
      }),
      ApiCreatedResponse({
        type: ClaimDto,
        description: 'The new claim, without includes',
        headers: { Location: { description: 'Absolute URL of the claim', schema: { type: 'string', format: 'uri' } } },
      }),
      ApiErrors(400, 401, 403, 406, 409, 413, 422, {
        409: 'An expense of the claim is claimed already, or a concurrent change won the race.',
      }),
    ),
  ofUser: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'listUserClaims',
        summary: 'List claims by user',
        description:
          'Permission: none beyond the hierarchy rule: the caller’s own, or a user the caller has ' +
          'approve-claims over; another user of the organisation is a 403, ' +
          'an unknown one a 404. Filters submitted, from, to (created dates); o: a|d by created_at.',
      }),
      ApiIdParam('userId', 'User id'),
      ApiListQuery(USER_CLAIM_LIST_SPEC),
      ApiSubmittedQuery(),
      ApiCreatedRangeQuery(),
      ApiPaginated(ClaimDto),
      ApiErrors(400, 401, 403, 404, 406, 422),
    ),
  get: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'getClaim',
        summary: 'Get claim',
        description:
          'Permission: none beyond the hierarchy rule: the caller’s own, or of a user the caller has ' +
          'approve-claims over; another user of the organisation is a 403, an unknown user or claim a 404.',
      }),
      ApiIdParam('userId', 'User id'),
      ApiIdParam('id', 'Claim id'),
      ApiIncludeQuery(CLAIM_INCLUDES),
      ApiOkResponse({ type: ClaimDto }),
      ApiErrors(400, 401, 403, 404, 406, 422),
    ),
  update: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'updateClaim',
        summary: 'Update claim',
        description:
          'Permission: notes and authoriser: the owner; reject: approve-claims over the owner; approve: ' +
          'approve-claims over the owner, or self-approve-claims ' +
          'for one’s own; submit: the owner or an approver. Approve, reject, submit, or change notes and ' +
          'authoriser, as the claim state table allows (409 otherwise). ' +
          'A caller who is neither the owner nor holds approve-claims over the owner gets a 403, as does one ' +
          'lacking the permission the change needs; an unknown user or claim is a 404.',
      }),
      ApiIdParam('userId', 'User id: the owner'),
      ApiIdParam('id', 'Claim id'),
      ApiOkResponse({ type: ClaimDto, description: 'The claim after the change, without includes' }),
      ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, {
        409: 'The claim’s state refuses the change (see the claim state table), or a concurrent change won the race.',
      }),
    ),
};

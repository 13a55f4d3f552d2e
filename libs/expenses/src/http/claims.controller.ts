import { applyDecorators, Body, Controller, Get, Inject, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteConfig } from '@nestjs/platform-fastify';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, RequirePermission } from '#app/identity';
import {
  ApiBooleanQuery,
  ApiErrors,
  ApiIdListQuery,
  ApiIdParam,
  ApiIncludeQuery,
  ApiListQuery,
  ApiPaginated,
  APP_CONFIG,
  type AppConfig,
  calendarDateMessage,
  isCalendarDate,
  type Paginated,
  paginate,
  parseBooleanQuery,
  parseListQuery,
  pathId,
  ValidationError,
} from '#app/platform';
import { CreateClaimCommand } from '../claim/create-claim.command.js';
import { UpdateClaimCommand } from '../claim/update-claim.command.js';
import { EXPENSE_PERMISSIONS, ExpensesPolicy } from '../expenses.policy.js';
import { CLAIM_INCLUDES, CLAIM_SORTS, ClaimQueries, type ClaimFilters } from '../claim/claim.queries.js';
import { CreateClaimBody, UpdateClaimBody } from './claim.dto.js';
import { ClaimDto } from './claim.responses.js';
import { CLAIM_CSV_COLUMNS, toCsv } from './csv.js';

function idList(query: Record<string, string>, name: string): number[] | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  const ids = raw.split(',').map((s) => s.trim());
  if (ids.some((s) => !/^\d{1,15}$/.test(s)))
    throw new ValidationError({ [name]: [`The ${name} field must be comma-separated ids.`] });
  return ids.map(Number);
}

function filters(query: Record<string, string>): ClaimFilters {
  const f: ClaimFilters = {
    approved: parseBooleanQuery(query, 'approved'),
    submitted: parseBooleanQuery(query, 'submitted'),
    users: idList(query, 'user'),
    assignees: idList(query, 'assignee'),
  };
  for (const key of ['from', 'to'] as const) {
    if (query[key] === undefined) continue;
    if (!isCalendarDate(query[key])) throw new ValidationError({ [key]: [calendarDateMessage(key)] });
    f[key] = query[key];
  }
  return f;
}

const listSpec = { sorts: CLAIM_SORTS, includes: CLAIM_INCLUDES, defaultDirection: 'desc' as const };
const userListSpec = { sorts: ['created_at'] as const, includes: CLAIM_INCLUDES, defaultDirection: 'desc' as const };

/** The query filters `filters` reads, for the document. */
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

/** Claims are read by their owner and by users who approve for the owner; creating one needs create-expenses. */
@ApiTags('claims')
@ApiBearerAuth()
@Controller('api')
export class ClaimsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly claims: ClaimQueries,
    private readonly policy: ExpensesPolicy,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('claims')
  @RequirePermission(EXPENSE_PERMISSIONS.approve)
  @ApiOperation({
    summary: 'List claims of managed users',
    description:
      'Permission: approve-claims; the claims of the users the caller manages through it. Filters approved, submitted, user, assignee (comma-separated ids), ' +
      'from, to; s: created_at (default), amount, approved_at, assignedTo, authorised_user_id, submitted_date, user; o: a|d (default d).',
  })
  @ApiListQuery(listSpec)
  @ApiManagedFilters()
  @ApiPaginated(ClaimDto)
  @ApiErrors(400, 401, 403, 406, 422)
  async managed(
    @CurrentCaller() caller: Caller,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<ClaimDto>> {
    const q = parseListQuery(query, listSpec);
    const { items, total } = await this.claims.managed(caller, filters(query), { ...q, sort: q.sort! });
    return paginate(items, total, q, this.config.http.publicUrl, req.url);
  }

  @Get('claims/export.csv')
  @RequirePermission(EXPENSE_PERMISSIONS.approve)
  // The Accept rule (platform accept.ts) serves this route for text/csv, text/*, */* or no Accept.
  @RouteConfig({ produces: ['text/csv'] })
  @ApiProduces('text/csv')
  @ApiOperation({
    summary: 'Export claims as CSV',
    description:
      'Permission: approve-claims. Not in the interface spec: one row per claimed expense, with the managed list’s filters and sort (no paging). ' +
      'Answers text/csv: an Accept naming only JSON is a 406.',
  })
  @ApiQuery({
    name: 's',
    required: false,
    description: 'Sort column',
    schema: { type: 'string', enum: [...CLAIM_SORTS], default: 'created_at' },
  })
  @ApiQuery({
    name: 'o',
    required: false,
    description: 'Direction: a/asc ascending, d/desc descending',
    schema: { type: 'string', enum: ['a', 'd', 'asc', 'desc'], default: 'd' },
  })
  @ApiManagedFilters()
  @ApiOkResponse({
    description: 'The CSV file (attachment claims.csv)',
    schema: { type: 'string', description: `Columns: ${CLAIM_CSV_COLUMNS.join(', ')}` },
  })
  @ApiErrors(400, 401, 403, 406, 422)
  async export(
    @CurrentCaller() caller: Caller,
    @Query() query: Record<string, string>,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const q = parseListQuery(query, listSpec);
    const rows = await this.claims.rows(caller, await this.policy.approvedUsers(caller), filters(query), {
      sort: q.sort!,
      direction: q.direction,
    });
    await reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="claims.csv"')
      .send(toCsv(CLAIM_CSV_COLUMNS, rows));
  }

  @Post('claims')
  @RequirePermission(EXPENSE_PERMISSIONS.record)
  @ApiOperation({
    summary: 'Create claim',
    description: 'Permission: create-expenses. Owned by the caller; answers the claim (with id and a Location header).',
  })
  @ApiCreatedResponse({
    type: ClaimDto,
    description: 'The new claim, without includes',
    headers: { Location: { description: 'Absolute URL of the claim', schema: { type: 'string', format: 'uri' } } },
  })
  @ApiErrors(400, 401, 403, 406, 409, 413, 422, {
    409: 'An expense of the claim is claimed already, or a concurrent change won the race.',
  })
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateClaimBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ClaimDto> {
    const id = await this.commands.execute(
      new CreateClaimCommand(
        caller,
        body.assignedTo.id,
        body.notes ?? '',
        body.expenses.map((e) => e.id),
      ),
    );
    void reply.header('location', `${this.config.http.publicUrl}/api/users/${caller.userId}/claims/${id}`);
    return this.claims.get(caller, caller.userId, id);
  }

  @Get('users/:userId/claims')
  @ApiOperation({
    summary: 'List claims by user',
    description:
      'Permission: none beyond the hierarchy rule: the caller’s own, or a user the caller has approve-claims over; another user of the organisation is a 403, ' +
      'an unknown one a 404. Filters submitted, from, to (created dates); o: a|d by created_at.',
  })
  @ApiIdParam('userId', 'User id')
  @ApiListQuery(userListSpec)
  @ApiSubmittedQuery()
  @ApiCreatedRangeQuery()
  @ApiPaginated(ClaimDto)
  @ApiErrors(400, 401, 403, 404, 406, 422)
  async ofUser(
    @CurrentCaller() caller: Caller,
    @Param('userId') raw: string,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<ClaimDto>> {
    const q = parseListQuery(query, userListSpec);
    const { approved: _a, users: _u, assignees: _s, ...f } = filters(query);
    const { items, total } = await this.claims.ofUser(caller, pathId(raw, 'User'), f, { ...q, sort: 'created_at' });
    return paginate(items, total, q, this.config.http.publicUrl, req.url);
  }

  @Get('users/:userId/claims/:id')
  @ApiOperation({
    summary: 'Get claim',
    description:
      'Permission: none beyond the hierarchy rule: the caller’s own, or of a user the caller has approve-claims over; another user of the organisation is a 403, an unknown user or claim a 404.',
  })
  @ApiIdParam('userId', 'User id')
  @ApiIdParam('id', 'Claim id')
  @ApiIncludeQuery(CLAIM_INCLUDES)
  @ApiOkResponse({ type: ClaimDto })
  @ApiErrors(400, 401, 403, 404, 406, 422)
  get(
    @CurrentCaller() caller: Caller,
    @Param('userId') userId: string,
    @Param('id') id: string,
    @Query() query: Record<string, string>,
  ): Promise<ClaimDto> {
    const { include } = parseListQuery(query, { includes: CLAIM_INCLUDES });
    return this.claims.get(caller, pathId(userId, 'User'), pathId(id, 'Claim'), include);
  }

  @Put('users/:userId/claims/:id')
  @ApiOperation({
    summary: 'Update claim',
    description:
      'Permission: notes and authoriser: the owner; reject: approve-claims over the owner; approve: approve-claims over the owner, or self-approve-claims ' +
      'for one’s own; submit: the owner or an approver. Approve, reject, submit, or change notes and authoriser, as the claim state table allows (409 otherwise). ' +
      'A caller who is neither the owner nor holds approve-claims over the owner gets a 403, as does one lacking the permission the change needs; an unknown user or claim is a 404.',
  })
  @ApiIdParam('userId', 'User id: the owner')
  @ApiIdParam('id', 'Claim id')
  @ApiOkResponse({ type: ClaimDto, description: 'The claim after the change, without includes' })
  @ApiErrors(400, 401, 403, 404, 406, 409, 413, 422, {
    409: 'The claim’s state refuses the change (see the claim state table), or a concurrent change won the race.',
  })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('userId') userId: string,
    @Param('id') id: string,
    @Body() body: UpdateClaimBody,
  ): Promise<ClaimDto> {
    const owner = pathId(userId, 'User');
    await this.commands.execute(
      new UpdateClaimCommand(caller, owner, pathId(id, 'Claim'), {
        notes: body.notes,
        assignedTo: body.assignedTo?.id,
        approved: body.approved,
        approvalNote: body.approval_note,
        rejectionNote: body.rejection_note,
        submitted: body.submitted,
        submittedAt: body.submitted_date ? new Date(body.submitted_date).toISOString() : undefined,
      }),
    );
    return this.claims.get(caller, owner, pathId(id, 'Claim'));
  }
}

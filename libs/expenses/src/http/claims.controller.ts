import { Body, Controller, Get, Inject, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, Hierarchy, RequirePermission } from '#app/identity';
import { APP_CONFIG, type AppConfig, paginate, parseBooleanQuery, parseListQuery, pathId, ValidationError } from '#app/platform';
import { CreateClaimCommand, UpdateClaimCommand } from '../claim/claim.commands.js';
import { CLAIM_INCLUDES, CLAIM_SORTS, ClaimQueries, type ClaimFilters } from '../claim/claim.queries.js';
import { CreateClaimBody, UpdateClaimBody } from './claim.dto.js';
import { CLAIM_CSV_COLUMNS, toCsv } from './csv.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function idList(query: Record<string, string>, name: string): number[] | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  const ids = raw.split(',').map((s) => s.trim());
  if (ids.some((s) => !/^\d{1,15}$/.test(s))) throw new ValidationError({ [name]: [`The ${name} field must be comma-separated ids.`] });
  return ids.map(Number);
}

function filters(query: Record<string, string>): ClaimFilters {
  const f: ClaimFilters = { approved: parseBooleanQuery(query, 'approved'), submitted: parseBooleanQuery(query, 'submitted'), users: idList(query, 'user'), assignees: idList(query, 'assignee') };
  for (const key of ['from', 'to'] as const) {
    if (query[key] === undefined) continue;
    if (!DATE.test(query[key]!)) throw new ValidationError({ [key]: [`The ${key} field must be a date (YYYY-MM-DD).`] });
    f[key] = query[key];
  }
  return f;
}

const listSpec = { sorts: CLAIM_SORTS, includes: CLAIM_INCLUDES, defaultDirection: 'desc' as const };

/** Claims are read by their owner and by users who approve for the owner; creating one needs create-expenses. */
@ApiTags('claims')
@ApiBearerAuth()
@Controller('api')
export class ClaimsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly claims: ClaimQueries,
    private readonly hierarchy: Hierarchy,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('claims')
  @RequirePermission('approve-claims')
  @ApiOperation({
    summary: 'List claims of managed users',
    description: 'Filters approved, submitted, user, assignee (comma-separated ids); s: created_at (default), amount, approved_at, assignedTo, authorised_user_id, submitted_date, user; o: a|d (default d).',
  })
  async managed(@CurrentCaller() caller: Caller, @Query() query: Record<string, string>, @Req() req: FastifyRequest) {
    const q = parseListQuery(query, listSpec);
    const { items, total } = await this.claims.managed(caller, filters(query), { ...q, sort: q.sort! });
    return paginate(items, total, q, this.config.http.publicUrl, req.url);
  }

  @Get('claims/export.csv')
  @RequirePermission('approve-claims')
  @ApiOperation({ summary: 'Export claims as CSV', description: 'Not in the interface spec: one row per claimed expense, with the managed list’s filters and sort.' })
  async export(@CurrentCaller() caller: Caller, @Query() query: Record<string, string>, @Res() reply: FastifyReply): Promise<void> {
    const q = parseListQuery(query, listSpec);
    const rows = await this.claims.rows(caller, await this.hierarchy.managedUsers(caller, 'approve-claims'), filters(query), { sort: q.sort!, direction: q.direction });
    await reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="claims.csv"').send(toCsv(CLAIM_CSV_COLUMNS, rows));
  }

  @Post('claims')
  @RequirePermission('create-expenses')
  @ApiOperation({ summary: 'Create claim', description: 'Owned by the caller; answers the claim (with id and a Location header).' })
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateClaimBody, @Res({ passthrough: true }) reply: FastifyReply) {
    const id = await this.commands.execute(new CreateClaimCommand(caller, body.assignedTo.id, body.notes ?? '', body.expenses.map((e) => e.id)));
    void reply.header('location', `${this.config.http.publicUrl}/api/users/${caller.userId}/claims/${id}`);
    return this.claims.get(caller, caller.userId, id);
  }

  @Get('users/:userId/claims')
  @ApiOperation({ summary: 'List claims by user', description: 'Filters submitted, from, to (created dates); o: a|d by created_at.' })
  async ofUser(@CurrentCaller() caller: Caller, @Param('userId') raw: string, @Query() query: Record<string, string>, @Req() req: FastifyRequest) {
    const q = parseListQuery(query, { sorts: ['created_at'] as const, includes: CLAIM_INCLUDES, defaultDirection: 'desc' });
    const { approved: _a, users: _u, assignees: _s, ...f } = filters(query);
    const { items, total } = await this.claims.ofUser(caller, pathId(raw, 'User'), f, { ...q, sort: 'created_at' });
    return paginate(items, total, q, this.config.http.publicUrl, req.url);
  }

  @Get('users/:userId/claims/:id')
  @ApiOperation({ summary: 'Get claim' })
  get(@CurrentCaller() caller: Caller, @Param('userId') userId: string, @Param('id') id: string, @Query() query: Record<string, string>) {
    const { include } = parseListQuery(query, { includes: CLAIM_INCLUDES });
    return this.claims.get(caller, pathId(userId, 'User'), pathId(id, 'Claim'), include);
  }

  @Put('users/:userId/claims/:id')
  @ApiOperation({ summary: 'Update claim', description: 'Approve, reject, submit, or change notes and authoriser, as the claim state table allows (409 otherwise).' })
  async update(@CurrentCaller() caller: Caller, @Param('userId') userId: string, @Param('id') id: string, @Body() body: UpdateClaimBody) {
    const owner = pathId(userId, 'User');
    await this.commands.execute(
      new UpdateClaimCommand(caller, owner, pathId(id, 'Claim'), {
        notes: body.notes, assignedTo: body.assignedTo?.id, approved: body.approved, approvalNote: body.approval_note,
        rejectionNote: body.rejection_note, submitted: body.submitted, submittedAt: body.submitted_date ? new Date(body.submitted_date).toISOString() : undefined,
      }),
    );
    return this.claims.get(caller, owner, pathId(id, 'Claim'));
  }
}

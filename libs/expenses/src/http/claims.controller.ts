import { Body, Controller, Get, Inject, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, RequirePermission } from '#app/identity';
import { APP_CONFIG, type AppConfig, type Paginated, paginate, pathId, toCsv } from '#app/platform';
import { CreateClaimCommand } from '../claim/create-claim.command.js';
import { UpdateClaimCommand } from '../claim/update-claim.command.js';
import { EXPENSE_PERMISSIONS, ExpensesPolicy } from '../expenses.policy.js';
import { ClaimQueries } from '../claim/claim.queries.js';
import {
  ClaimIncludeQuery,
  CreateClaimBody,
  ManagedClaimsQuery,
  UpdateClaimBody,
  UserClaimsQuery,
} from './claim.dto.js';
import { ClaimDto } from './claim.responses.js';
import { CLAIM_CSV_COLUMNS } from '../claim/claim-csv.js';
import { ClaimsDocs } from './claims.openapi.js';

/** Claims are read by their owner and by users who approve for the owner; creating one needs create-expenses. */
@ClaimsDocs.controller()
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
  @ClaimsDocs.managed()
  async managed(
    @CurrentCaller() caller: Caller,
    @Query() query: ManagedClaimsQuery,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<ClaimDto>> {
    const { items, total } = await this.claims.managed(caller, query.filters, query.list);
    return paginate(items, total, query.list, this.config.http.publicUrl, req.url);
  }

  @Get('claims/export.csv')
  @RequirePermission(EXPENSE_PERMISSIONS.approve)
  // The Accept rule (platform accept.ts) serves this route for text/csv, text/*, */* or no Accept.
  @RouteConfig({ produces: ['text/csv'] })
  @ClaimsDocs.export()
  async export(
    @CurrentCaller() caller: Caller,
    @Query() query: ManagedClaimsQuery,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const rows = await this.claims.rows(caller, await this.policy.approvedUsers(caller), query.filters, query.list);
    await reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="claims.csv"')
      .send(toCsv(CLAIM_CSV_COLUMNS, rows));
  }

  @Post('claims')
  @RequirePermission(EXPENSE_PERMISSIONS.record)
  @ClaimsDocs.create()
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
  @ClaimsDocs.ofUser()
  async ofUser(
    @CurrentCaller() caller: Caller,
    @Param('userId') raw: string,
    @Query() query: UserClaimsQuery,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<ClaimDto>> {
    const { items, total } = await this.claims.ofUser(caller, pathId(raw, 'User'), query.filters, query.list);
    return paginate(items, total, query.list, this.config.http.publicUrl, req.url);
  }

  @Get('users/:userId/claims/:id')
  @ClaimsDocs.get()
  get(
    @CurrentCaller() caller: Caller,
    @Param('userId') userId: string,
    @Param('id') id: string,
    @Query() query: ClaimIncludeQuery,
  ): Promise<ClaimDto> {
    return this.claims.get(caller, pathId(userId, 'User'), pathId(id, 'Claim'), query.include);
  }

  @Put('users/:userId/claims/:id')
  @ClaimsDocs.update()
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

import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { HistoryReader } from '#app/event-store';
import { type Caller, CurrentCaller, HistoryEntryDto, UserBases } from '#app/identity';
import { APP_CONFIG, type AppConfig, PageQuery, type Paginated, paginate, pathId } from '#app/platform';
import { CLAIM_HISTORY } from '../claim/claim-history.js';
import { ClaimQueries } from '../claim/claim.queries.js';
import { streams } from '../expenses.events.js';
import { ClaimHistoryDocs } from './claim-history.openapi.js';

/** A claim's history (docs/expense-rules.md#claim-history): whoever may read the claim may read its history. */
@ClaimHistoryDocs.controller()
@Controller('api/users/:userId/claims/:id/history')
export class ClaimHistoryController {
  constructor(
    private readonly claims: ClaimQueries,
    private readonly reader: HistoryReader,
    private readonly users: UserBases,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ClaimHistoryDocs.history()
  async history(
    @CurrentCaller() caller: Caller,
    @Param('userId') userId: string,
    @Param('id') raw: string,
    @Query() page: PageQuery,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<HistoryEntryDto>> {
    const id = pathId(raw, 'Claim');
    // The claim's own read is the access check: 404 / 403 exactly as GET answers.
    await this.claims.get(caller, pathId(userId, 'User'), id);
    const { items, total } = await this.reader.page(streams.claim(id), CLAIM_HISTORY, page, (ids) =>
      this.users.of(caller, ids, 'approve-claims'),
    );
    return paginate(items, total, page, this.config.http.publicUrl, req.url);
  }
}

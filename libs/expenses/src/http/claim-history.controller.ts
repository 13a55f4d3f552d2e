import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { HistoryReader } from '#app/event-store';
import { type Caller, CurrentCaller, HistoryEntryDto, UserBaseDto, UserBases } from '#app/identity';
import {
  ApiErrors,
  ApiIdParam,
  ApiListQuery,
  ApiPaginated,
  APP_CONFIG,
  type AppConfig,
  type Paginated,
  paginate,
  parseListQuery,
  pathId,
} from '#app/platform';
import { CLAIM_HISTORY } from '../claim/claim-history.js';
import { ClaimQueries } from '../claim/claim.queries.js';
import { streams } from '../expenses.events.js';

/** A claim's history (rotas.md "History"): whoever may read the claim may read its history. */
@ApiTags('claims')
@ApiBearerAuth()
@ApiExtraModels(UserBaseDto)
@Controller('api/users/:userId/claims/:id/history')
export class ClaimHistoryController {
  constructor(
    private readonly claims: ClaimQueries,
    private readonly reader: HistoryReader,
    private readonly users: UserBases,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Claim history',
    description:
      'Addition. Permission: as GET /api/users/{userId}/claims/{id}: the caller’s own, or of a user the caller has approve-claims over; another user of ' +
      'the organisation is a 403, an unknown user or claim (or one of another user) a 404. Its events, oldest first, in the pagination envelope: at ' +
      '(ISO 8601), actor (a UserBase; null for the system), action (the event’s name) and changes (the fields it set, with the Claim’s field names and ' +
      'output shapes). Actions: ClaimCreated, ClaimChanged, ClaimApproved, ClaimRejected, ClaimSubmitted, ClaimSubmissionMailed (the finance mail went out; no field).',
  })
  @ApiIdParam('userId', 'User id: the owner')
  @ApiIdParam('id', 'Claim id')
  @ApiListQuery()
  @ApiPaginated(HistoryEntryDto)
  @ApiErrors(400, 401, 403, 404, 406, 422)
  async history(
    @CurrentCaller() caller: Caller,
    @Param('userId') userId: string,
    @Param('id') raw: string,
    @Query() query: Record<string, unknown>,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<HistoryEntryDto>> {
    const id = pathId(raw, 'Claim');
    // The claim's own read is the access check: 404 / 403 exactly as GET answers.
    await this.claims.get(caller, pathId(userId, 'User'), id);
    const page = parseListQuery(query);
    const { items, total } = await this.reader.page(streams.claim(id), CLAIM_HISTORY, page, (ids) =>
      this.users.of(caller, ids, 'approve-claims'),
    );
    return paginate(items, total, page, this.config.http.publicUrl, req.url);
  }
}

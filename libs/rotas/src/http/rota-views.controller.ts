import { Controller, Get, Param, Query } from '@nestjs/common';
import { type Caller, CurrentCaller, OrganisationFactsReader } from '#app/identity';
import { calendarDateMessage, isCalendarDate, ValidationError } from '#app/platform';
import { RotasPolicy } from '../rotas.policy.js';
import { RotaViewQueries } from '../views/rota-views.queries.js';
import { DayViewQuery, PeriodViewQuery, periodRange } from './rota-views.dto.js';
import { DayViewDto, PeriodViewDto } from './rota-views.responses.js';
import { RotaViewsDocs } from './rota-views.openapi.js';

/** The rota views: period (basic and detailed) and day. */
@RotaViewsDocs.controller()
@Controller('api/rota')
export class RotaViewsController {
  constructor(
    private readonly views: RotaViewQueries,
    private readonly policy: RotasPolicy,
    private readonly organisations: OrganisationFactsReader,
  ) {}

  @Get('period')
  @RotaViewsDocs.period()
  async period(@CurrentCaller() caller: Caller, @Query() query: PeriodViewQuery): Promise<PeriodViewDto> {
    const [facts, reach] = await Promise.all([this.organisations.of(caller), this.policy.reach(caller)]);
    const { from, to } = periodRange(query, facts.today);
    const { detailed, userFlags, teams, rotas } = query;
    return this.views.period(caller, reach, facts, { from, to, detailed, userFlags, teams, rotas });
  }

  @Get('day/:date')
  @RotaViewsDocs.day()
  async day(
    @CurrentCaller() caller: Caller,
    @Param('date') date: string,
    @Query() query: DayViewQuery,
  ): Promise<DayViewDto> {
    if (!isCalendarDate(date)) throw new ValidationError({ date: [calendarDateMessage('date')] });
    const [facts, reach] = await Promise.all([this.organisations.of(caller), this.policy.reach(caller)]);
    if (query.users && !facts.features.has('rota_v2'))
      throw new ValidationError({ users: ['The users filter needs the second rota version (the rota_v2 feature).'] });
    return this.views.day(caller, reach, facts, { date, ...query });
  }
}

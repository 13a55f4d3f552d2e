import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, OrganisationFactsReader } from '#app/identity';
import { preferredType, toCsv } from '#app/platform';
import { VolunteerHoursQueries } from '../hours/volunteer-hours.queries.js';
import { managedTeams, RotasPolicy } from '../rotas.policy.js';
import { periodRange } from './rota-views.dto.js';
import { MAX_REPORT_DAYS, VolunteerHoursQuery } from './volunteer-hours.dto.js';
import { VolunteerHoursDocs } from './volunteer-hours.openapi.js';
import { HOURS_CSV_COLUMNS, type VolunteerHoursReportDto } from './volunteer-hours.responses.js';

const PRODUCES = ['application/json', 'text/csv'];

/** The volunteer hours report (docs/rota-domain.md#volunteer-hours), as JSON or CSV by Accept. */
@VolunteerHoursDocs.controller()
@Controller('api/reports')
export class VolunteerHoursController {
  constructor(
    private readonly hours: VolunteerHoursQueries,
    private readonly policy: RotasPolicy,
    private readonly organisations: OrganisationFactsReader,
  ) {}

  @Get('volunteer-hours')
  // The Accept rule (platform accept.ts) serves this route for JSON, text/csv and wildcards.
  @RouteConfig({ produces: PRODUCES })
  @VolunteerHoursDocs.report()
  async report(
    @CurrentCaller() caller: Caller,
    @Query() query: VolunteerHoursQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VolunteerHoursReportDto | string> {
    this.policy.requireRotaManager(caller);
    const [facts, reach] = await Promise.all([this.organisations.of(caller), this.policy.reach(caller)]);
    const { from, to } = periodRange(query, facts.today, MAX_REPORT_DAYS);
    const teams = managedTeams(reach).filter((t) => !query.teams || query.teams.includes(t));
    const { rotas, users, groupBy } = query;
    const rows = await this.hours.report(caller, { from, to, now: new Date(), teams, rotas, users, groupBy });
    if (preferredType(req.headers.accept, PRODUCES) === 'text/csv') {
      void reply.type('text/csv; charset=utf-8');
      // docs/rota-domain.md#volunteer-hours: every name starting with =, +, - or @, even "-12", gets the apostrophe.
      return toCsv(HOURS_CSV_COLUMNS, rows, { text: ['name'] });
    }
    return { data: rows, meta: { start_date: from, end_date: to, group_by: groupBy } };
  }
}

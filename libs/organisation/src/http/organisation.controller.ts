import { Body, Controller, Get, HttpCode, Inject, Put, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, RequirePermission } from '#app/identity';
import { APP_CONFIG, type AppConfig, BodyLimit, PageQuery, type Paginated, paginate } from '#app/platform';
import { SettingsHistory } from '../settings/settings-history.js';
import { SettingsViews } from '../settings/settings-views.js';
import { UpdateSettingsCommand } from '../settings/update-settings.command.js';
import { OrganisationBasicDto, OrganisationChangeDto, OrganisationDetailedDto } from './openapi-schemas.js';
import { OrganisationDocs } from './organisation.openapi.js';

@OrganisationDocs.controller()
@Controller('api/organisation')
export class OrganisationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly views: SettingsViews,
    private readonly history: SettingsHistory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @OrganisationDocs.basic()
  async basic(@CurrentCaller() caller: Caller): Promise<{ data: OrganisationBasicDto }> {
    return { data: await this.views.basic(caller) };
  }

  @Get('detailed')
  @OrganisationDocs.detailed()
  async detailed(@CurrentCaller() caller: Caller): Promise<{ data: OrganisationDetailedDto }> {
    return { data: await this.views.detailed(caller) };
  }

  @Put()
  @HttpCode(200)
  // Nine text fields take 20,000 characters each: escaped, an honest body can near a megabyte.
  @BodyLimit(1_048_576)
  @OrganisationDocs.update()
  async update(@CurrentCaller() caller: Caller, @Body() body: unknown): Promise<{ data: OrganisationDetailedDto }> {
    await this.commands.execute(new UpdateSettingsCommand(caller, body));
    return { data: await this.views.detailed(caller) };
  }

  @Get('history')
  @RequirePermission('manage-organisation')
  @OrganisationDocs.changes()
  async changes(
    @CurrentCaller() caller: Caller,
    @Query() page: PageQuery,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<OrganisationChangeDto>> {
    const { items, total } = await this.history.page(caller, page);
    return paginate(items, total, page, this.config.http.publicUrl, req.url);
  }
}

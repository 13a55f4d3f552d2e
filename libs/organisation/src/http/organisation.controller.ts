import { Body, Controller, Get, HttpCode, Inject, Put, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiExtraModels, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, RequirePermission } from '#app/identity';
import {
  ApiData,
  ApiErrors,
  ApiListQuery,
  ApiPaginated,
  APP_CONFIG,
  type AppConfig,
  BodyLimit,
  type Paginated,
  paginate,
  parseListQuery,
} from '#app/platform';
import { SettingsHistory } from '../settings/settings-history.js';
import { SettingsViews } from '../settings/settings-views.js';
import { UpdateSettingsCommand } from '../settings/update-settings.command.js';
import {
  ORGANISATION_MODELS,
  OrganisationBasicDto,
  OrganisationChangeDto,
  OrganisationDetailedDto,
  updateBodySchema,
} from './openapi-schemas.js';

@ApiTags('organisation')
@ApiBearerAuth()
@ApiExtraModels(...ORGANISATION_MODELS)
@Controller('api/organisation')
export class OrganisationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly views: SettingsViews,
    private readonly history: SettingsHistory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Get basic organisation',
    description: 'Permission: any logged-in user of the organisation.',
  })
  @ApiData(OrganisationBasicDto)
  @ApiErrors(400, 401, 406)
  async basic(@CurrentCaller() caller: Caller): Promise<{ data: OrganisationBasicDto }> {
    return { data: await this.views.basic(caller) };
  }

  @Get('detailed')
  @ApiOperation({
    summary: 'Get detailed organisation',
    description:
      'Permission: any logged-in user; the answer holds the basic fields plus those the caller’s permissions reach (manage-organisation, manage-integrations, edit-expense-settings, manage-rotas). ' +
      'Secrets never appear; their *_set flags do, for whoever may set them.',
  })
  @ApiData(OrganisationDetailedDto)
  @ApiErrors(400, 401, 406)
  async detailed(@CurrentCaller() caller: Caller): Promise<{ data: OrganisationDetailedDto }> {
    return { data: await this.views.detailed(caller) };
  }

  @Put()
  @HttpCode(200)
  // Nine text fields take 20,000 characters each: escaped, an honest body can near a megabyte.
  @BodyLimit(1_048_576)
  @ApiBody({ schema: updateBodySchema })
  @ApiOperation({
    summary: 'Update organisation',
    description:
      'Permission: each field names its own (manage-organisation, manage-integrations, edit-expense-settings, manage-rotas); fields the caller may not change are a 403 naming them. ' +
      'Unknown and read-only fields (slug, timezone, web_url, api_url, forum_url, *_set) are a 422. An image field names a file of the organisation (404 otherwise) the caller may read (403) ' +
      'that is an image (422). Answers the detailed view. An update that changes nothing records nothing.',
  })
  @ApiData(OrganisationDetailedDto, { description: 'The detailed view after the change' })
  @ApiErrors(400, 401, 403, 404, 406, 413, 422, { 404: 'An image field names no file of the organisation.' })
  async update(@CurrentCaller() caller: Caller, @Body() body: unknown): Promise<{ data: OrganisationDetailedDto }> {
    await this.commands.execute(new UpdateSettingsCommand(caller, body));
    return { data: await this.views.detailed(caller) };
  }

  @Get('history')
  @RequirePermission('manage-organisation')
  @ApiOperation({
    summary: 'Settings history',
    description:
      'Not in the interface spec. Permission: manage-organisation. Every change, newest first, with who made it. As in the detailed view, fields the caller’s permissions do not reach are left out of each change (the entry stays); secrets show only as "(changed)" or "(cleared)".',
  })
  @ApiListQuery()
  @ApiPaginated(OrganisationChangeDto)
  @ApiErrors(400, 401, 403, 406, 422)
  async changes(
    @CurrentCaller() caller: Caller,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
  ): Promise<Paginated<OrganisationChangeDto>> {
    const page = parseListQuery(query);
    const { items, total } = await this.history.page(caller, page);
    return paginate(items, total, page, this.config.http.publicUrl, req.url);
  }
}

import { Body, Controller, Get, HttpCode, Inject, Put, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, RequirePermission } from '#app/identity';
import { APP_CONFIG, type AppConfig, BodyLimit, paginate, parseListQuery } from '#app/platform';
import { SettingsHistory } from '../settings/settings-history.js';
import { SettingsViews } from '../settings/settings-views.js';
import { UpdateSettingsCommand } from '../settings/update-settings.command.js';
import { updateBodySchema } from './openapi-schemas.js';

@ApiTags('organisation')
@ApiBearerAuth()
@Controller('api/organisation')
export class OrganisationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly views: SettingsViews,
    private readonly history: SettingsHistory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Get basic organisation', description: 'Every user of the organisation.' })
  async basic(@CurrentCaller() caller: Caller) {
    return { data: await this.views.basic(caller) };
  }

  @Get('detailed')
  @ApiOperation({
    summary: 'Get detailed organisation',
    description: 'The basic fields plus those the caller’s permissions reach (manage-organisation, manage-integrations, edit-expense-settings). Secrets never appear; their *_set flags do.',
  })
  async detailed(@CurrentCaller() caller: Caller) {
    return { data: await this.views.detailed(caller) };
  }

  @Put()
  @HttpCode(200)
  // Nine text fields take 20,000 characters each: escaped, an honest body can near a megabyte.
  @BodyLimit(1_048_576)
  @ApiBody({ schema: updateBodySchema })
  @ApiOperation({
    summary: 'Update organisation',
    description: 'Any updatable field. Unknown and read-only fields (slug, timezone, web_url, api_url, forum_url, *_set) are a 422; fields the caller may not change a 403 naming them. Answers the detailed view.',
  })
  async update(@CurrentCaller() caller: Caller, @Body() body: unknown) {
    await this.commands.execute(new UpdateSettingsCommand(caller, body));
    return { data: await this.views.detailed(caller) };
  }

  @Get('history')
  @RequirePermission('manage-organisation')
  @ApiOperation({ summary: 'Settings history', description: 'Not in the interface spec: every change, newest first, with who made it. Secrets show only as "(changed)" or "(cleared)".' })
  async changes(@CurrentCaller() caller: Caller, @Query() query: Record<string, string>, @Req() req: FastifyRequest) {
    const page = parseListQuery(query);
    const { items, total } = await this.history.page(caller, page);
    return paginate(items, total, page, this.config.http.publicUrl, req.url);
  }
}

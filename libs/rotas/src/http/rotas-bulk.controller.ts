import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { type Caller, CurrentCaller, RequirePermission } from '#app/identity';
import { BulkActionCommand } from '../rota/bulk-action.command.js';
import { ReplaceRotasCommand } from '../rota/replace-rotas.command.js';
import { ROTA_PERMISSIONS } from '../rotas.policy.js';
import { BulkActionBody, ReplaceRotasBody } from './bulk.dto.js';
import { RotasBulkDocs } from './rotas-bulk.openapi.js';

/** Bulk actions over rotas and replacing rotas' timeslots with a pattern: manage-rotas, all or nothing. */
@RotasBulkDocs.controller()
@Controller('api/rotas')
export class RotasBulkController {
  constructor(private readonly commands: CommandBus) {}

  @Post('bulk')
  @HttpCode(204)
  @RequirePermission(ROTA_PERMISSIONS.manage)
  @RotasBulkDocs.bulk()
  async bulk(@CurrentCaller() caller: Caller, @Body() body: BulkActionBody): Promise<void> {
    await this.commands.execute(new BulkActionCommand(caller, body.action, body.rota_ids, body.data));
  }

  @Post('replace')
  @HttpCode(204)
  @RequirePermission(ROTA_PERMISSIONS.manage)
  @RotasBulkDocs.replace()
  async replace(@CurrentCaller() caller: Caller, @Body() body: ReplaceRotasBody): Promise<void> {
    await this.commands.execute(
      new ReplaceRotasCommand(caller, {
        name: body.name,
        startDate: body.start_date,
        endDate: body.end_date,
        patternId: body.pattern_id,
        rotaIds: body.replace_rotas,
      }),
    );
  }
}

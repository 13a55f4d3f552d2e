import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Caller, CurrentCaller, RequirePermission } from '#app/identity';
import { ApiErrors } from '#app/platform';
import { BulkActionCommand } from '../rota/bulk-action.command.js';
import { ReplaceRotasCommand } from '../rota/replace-rotas.command.js';
import { ROTA_PERMISSIONS } from '../rotas.policy.js';
import { BulkActionBody, ReplaceRotasBody } from './bulk.dto.js';

const RACE_409 =
  'A listed rota is archived (where the action refuses archived rotas), or a concurrent change of one of the rotas won the race; nothing was changed.';

/** Bulk actions over rotas and replacing rotas' timeslots with a pattern: manage-rotas, all or nothing. */
@ApiTags('rotas')
@ApiBearerAuth()
@Controller('api/rotas')
export class RotasBulkController {
  constructor(private readonly commands: CommandBus) {}

  @Post('bulk')
  @HttpCode(204)
  @RequirePermission(ROTA_PERMISSIONS.manage)
  @ApiOperation({
    summary: 'Bulk action',
    description:
      'Permission: manage-rotas; every rota in rota_ids must be one the caller manages (manage-rotas over its team): an unknown id, another organisation’s rota or one ' +
      'outside the caller’s reach is a 422 naming rota_ids and listing the ids. All or nothing: any refusal changes no rota. rota_ids: 1–500 ids (counted as sent; ' +
      'a repeated id is acted on once). Actions and their data: end_date {date} (today or later in the organisation’s zone, not before a rota’s start; archived ' +
      'rotas are skipped); name {name} (1–255 characters); close {dates} (1–366 dates, each today or later; the rota is closed on them); reopen {dates} (addition: ' +
      'lifts closures, same limits; shifts cancelled by the close stay cancelled); archive_rotas (no data; a rota archived already is left as it is); add_contacts ' +
      '{user_ids} (1–50 users of the organisation; needs the organisation’s rota_v2 feature, else a 422 naming action; users who are contacts already stay as they are). ' +
      'data holds only the action’s fields (another field is a 422 naming it). Except for end_date and archive_rotas, an archived rota among rota_ids is a 409. ' +
      'A change that changes nothing (same name, dates closed already, same end date) records nothing.',
  })
  @ApiNoContentResponse({ description: 'Done for every listed rota; no body' })
  @ApiErrors(400, 401, 403, 406, 409, 413, 422, { 409: RACE_409 })
  async bulk(@CurrentCaller() caller: Caller, @Body() body: BulkActionBody): Promise<void> {
    await this.commands.execute(new BulkActionCommand(caller, body.action, body.rota_ids, body.data));
  }

  @Post('replace')
  @HttpCode(204)
  @RequirePermission(ROTA_PERMISSIONS.manage)
  @ApiOperation({
    summary: 'Replace rotas with a shift pattern',
    description:
      'Permission: manage-rotas; every rota in replace_rotas must be one the caller manages (else a 422 naming replace_rotas and listing the ids). Each rota gets ' +
      'the pattern’s timeslots (with new ids) over [start_date, end_date] exactly as an update of timeslots would: start_date today or later; end_date absent or ' +
      'null replaces everything from start_date on (later versions dropped), given it must not be before start_date and what stood after it stands again. The ' +
      'pattern becomes the rota’s pattern; name (absent or null: unchanged) renames every rota. A rota’s own start and end do not move (timeslots written outside ' +
      'them count only where the rota is active). pattern_id: a shift pattern of the organisation that is not archived (else a 422 naming pattern_id). ' +
      'All or nothing; an archived rota among replace_rotas is a 409.',
  })
  @ApiNoContentResponse({ description: 'Replaced for every listed rota; no body' })
  @ApiErrors(400, 401, 403, 406, 409, 413, 422, { 409: RACE_409 })
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

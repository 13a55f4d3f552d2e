import { Body, Controller, Delete, HttpCode, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { type Caller, CurrentCaller } from '#app/identity';
import { pathId } from '#app/platform';
import { CancelShiftCommand } from '../booking/cancel-shift.command.js';
import { ChangeShiftCommand } from '../booking/change-shift.command.js';
import { ShiftQueries } from '../booking/shift.queries.js';
import { UpdateShiftBody } from './shift.dto.js';
import { ShiftDto } from './shift.responses.js';
import { ShiftChangesDocs } from './shift-changes.openapi.js';

/** Changes of one booked shift: update (single, or recurring over its series) and cancel. Booking, list and get: shifts.controller.ts. */
@ShiftChangesDocs.controller()
@Controller('api/rota/shifts')
export class ShiftChangesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly shifts: ShiftQueries,
  ) {}

  @Put(':id')
  @ShiftChangesDocs.update()
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id') raw: string,
    @Body() body: UpdateShiftBody,
  ): Promise<{ data: ShiftDto }> {
    const id = pathId(raw, 'Shift');
    await this.commands.execute(
      new ChangeShiftCommand(caller, id, {
        start_datetime: body.start_datetime,
        end_datetime: body.end_datetime,
        recurrence: body.recurrence_pattern,
        mode: body.edit_mode,
        ignoreOnHold: body.ignore_on_hold ?? false,
        confirmRoleRestriction: body.confirm_role_restriction ?? false,
      }),
    );
    return { data: (await this.shifts.views(caller, [id]))[0]! };
  }

  @Delete(':id')
  @HttpCode(204)
  @ShiftChangesDocs.cancel()
  async cancel(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<void> {
    await this.commands.execute(new CancelShiftCommand(caller, pathId(raw, 'Shift')));
  }
}

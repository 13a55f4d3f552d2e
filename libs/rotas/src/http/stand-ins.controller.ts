import { Body, Controller, Delete, HttpCode, Param, Post, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { type Caller, CurrentCaller } from '#app/identity';
import { pathId } from '#app/platform';
import { ShiftQueries } from '../booking/shift.queries.js';
import { StandInCommand } from '../booking/stand-in.command.js';
import { TakeOverShiftCommand } from '../booking/take-over.command.js';
import { StandInBody, TakeOverBody } from './shift.dto.js';
import { ShiftDto } from './shift.responses.js';
import { StandInsDocs } from './stand-ins.openapi.js';

/** Stand-ins (docs/rota-domain.md#stand-ins-and-take-overs): ask, withdraw, take over. */
@StandInsDocs.controller()
@Controller('api/rota/shifts')
export class StandInsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly shifts: ShiftQueries,
  ) {}

  @Put(':id/stand-in')
  @StandInsDocs.ask()
  async ask(
    @CurrentCaller() caller: Caller,
    @Param('id') raw: string,
    @Body() body: StandInBody,
  ): Promise<{ data: ShiftDto }> {
    const id = pathId(raw, 'Shift');
    await this.commands.execute(new StandInCommand(caller, id, { note: body.note ?? null }));
    return { data: (await this.shifts.views(caller, [id]))[0]! };
  }

  @Delete(':id/stand-in')
  @HttpCode(204)
  @StandInsDocs.withdraw()
  async withdraw(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<void> {
    await this.commands.execute(new StandInCommand(caller, pathId(raw, 'Shift'), null));
  }

  @Post(':id/take-over')
  @HttpCode(200)
  @StandInsDocs.takeOver()
  async takeOver(
    @CurrentCaller() caller: Caller,
    @Param('id') raw: string,
    @Body() body: TakeOverBody,
  ): Promise<{ data: ShiftDto }> {
    const id = pathId(raw, 'Shift');
    await this.commands.execute(
      new TakeOverShiftCommand(caller, id, {
        userId: body.user?.id,
        ignoreOnHold: body.ignore_on_hold ?? false,
        confirmRoleRestriction: body.confirm_role_restriction ?? false,
      }),
    );
    return { data: (await this.shifts.views(caller, [id]))[0]! };
  }
}

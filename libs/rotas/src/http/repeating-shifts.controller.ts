import { Controller, Delete, Get, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { type Caller, CurrentCaller } from '#app/identity';
import { pathId } from '#app/platform';
import { CancelSeriesCommand } from '../booking/cancel-series.command.js';
import { RepeatingShiftQueries } from '../booking/repeating-shift.queries.js';
import { RotasPolicy } from '../rotas.policy.js';
import { RepeatingShiftDto } from './repeating-shift.responses.js';
import { RepeatingShiftsDocs } from './repeating-shifts.openapi.js';

/** Repeating shifts (series): get (an addition) and cancel. A series is started by booking its first shift with a recurrence_pattern. */
@RepeatingShiftsDocs.controller()
@Controller('api/rota/repeating-shifts')
export class RepeatingShiftsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly series: RepeatingShiftQueries,
    private readonly policy: RotasPolicy,
  ) {}

  @Get(':id')
  @RepeatingShiftsDocs.get()
  async get(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<{ data: RepeatingShiftDto }> {
    const id = pathId(raw, 'Repeating shift');
    return { data: await this.series.view(caller, await this.policy.reach(caller), id) };
  }

  @Delete(':id')
  @HttpCode(204)
  @RepeatingShiftsDocs.cancel()
  async cancel(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<void> {
    await this.commands.execute(new CancelSeriesCommand(caller, pathId(raw, 'Repeating shift')));
  }
}

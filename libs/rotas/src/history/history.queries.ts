import { Injectable } from '@nestjs/common';
import { HistoryReader } from '#app/event-store';
import { type Caller, UserBases } from '#app/identity';
import type { PageRequest } from '#app/platform';
import { ContactQueries } from '../rota/contacts.queries.js';
import { RotasPolicy } from '../rotas.policy.js';
import { streamOf } from '../rotas.events.js';
import { ShiftQueries } from '../booking/shift.queries.js';
import { ROTA_HISTORY, SHIFT_HISTORY } from './rota-history.js';

/**
 * The history of a shift or a rota, answered as the record itself is (docs/rota-domain.md#history): the
 * record's own read decides first (404 another organisation's, unknown or a cancelled shift; 403
 * where the hierarchy hides it), then the record-history reader pages its stream.
 */
@Injectable()
export class RotasHistoryQueries {
  constructor(
    private readonly reader: HistoryReader,
    private readonly users: UserBases,
    private readonly policy: RotasPolicy,
    private readonly shifts: ShiftQueries,
    private readonly rotas: ContactQueries,
  ) {}

  /** As GET /api/rota/shifts/{id}; people as the shift shows its volunteer (`can_manage` through add-user-shifts). */
  async shift(caller: Caller, id: number, page: PageRequest) {
    await this.shifts.seen(caller, await this.policy.reach(caller), id);
    return this.reader.page(streamOf.shift(id), SHIFT_HISTORY, page, (ids) =>
      this.users.of(caller, ids, 'add-user-shifts'),
    );
  }

  /** As the rota's own reads (its contacts list); people as the contacts show them (`can_manage` through any permission). */
  async rota(caller: Caller, id: number, page: PageRequest) {
    this.policy.assertSees(await this.policy.reach(caller), await this.rotas.rota(caller, id));
    return this.reader.page(streamOf.rota(id), ROTA_HISTORY, page, (ids) => this.users.of(caller, ids, 'any'));
  }
}

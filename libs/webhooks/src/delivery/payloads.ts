import { Injectable } from '@nestjs/common';
import { ExpenseRecords } from '#app/expenses';
import { RotaRecords } from '#app/rotas';
import type { PublicEventSource } from '../event-types.js';

/**
 * The `data` of a webhook (docs/webhooks.md#event-types): the record as the API shows it, read
 * through the owning context's public reader (the same queries as its GET), never the internal
 * event's data. Null when the record cannot be found (nothing is sent then).
 */
@Injectable()
export class Payloads {
  constructor(
    private readonly rotas: RotaRecords,
    private readonly expenses: ExpenseRecords,
  ) {}

  async data(source: PublicEventSource, organisationId: number, id: number): Promise<object | null> {
    const record = await this.record(source.record, organisationId, id);
    return record && { ...record, ...source.extra };
  }

  private record(kind: PublicEventSource['record'], organisationId: number, id: number): Promise<object | null> {
    switch (kind) {
      case 'shift':
        return this.rotas.shift(organisationId, id);
      case 'repeating_shift':
        return this.rotas.repeatingShift(organisationId, id);
      case 'rota':
        return this.rotas.rota(organisationId, id);
      case 'claim':
        return this.expenses.claim(organisationId, id);
      case 'expense':
        return this.expenses.expense(organisationId, id);
      case 'user':
        return Promise.resolve({ id });
    }
  }
}

export function webhookBody(type: string, timestamp: string, data: object): string {
  return JSON.stringify({ type, timestamp, data });
}

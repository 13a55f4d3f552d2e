import { Injectable } from '@nestjs/common';
import { AsProjection, op, type Projection, type ProjectionOp, type StoredEvent } from '#app/event-store';
import type { RateData, SettingsEvent } from './expenses.events.js';

/** Expense types and rates. Deleted ones stay (expenses keep them) but leave the lists. */
@AsProjection()
@Injectable()
export class ExpenseSettingsProjection implements Projection {
  readonly name = 'expenses.settings';
  readonly version = 1;
  readonly tables = ['expense_types', 'expense_rates'];
  readonly handles = [
    'expenses.ExpenseTypeCreated', 'expenses.ExpenseTypeChanged', 'expenses.ExpenseTypeDeleted',
    'expenses.ExpenseRateCreated', 'expenses.ExpenseRateChanged', 'expenses.ExpenseRateDeleted',
  ];

  project(stored: StoredEvent): ProjectionOp[] {
    const e = stored as unknown as SettingsEvent;
    const at = stored.recordedAt;
    switch (e.type) {
      case 'expenses.ExpenseTypeCreated':
      case 'expenses.ExpenseTypeChanged':
        return [op.upsert('expense_types', ['id'], { id: e.data.id, organisation_id: e.data.organisationId, name: e.data.name, order_id: e.data.position, deleted: false })];
      case 'expenses.ExpenseTypeDeleted':
        return [op.update('expense_types', { id: e.data.id }, { deleted: true })];
      case 'expenses.ExpenseRateCreated': {
        const d = e.data;
        return [op.upsert('expense_rates', ['id'], { ...rateRow(d), created_at: at, updated_at: at, deleted: false })];
      }
      case 'expenses.ExpenseRateChanged':
        return [op.update('expense_rates', { id: e.data.id }, { ...rateRow(e.data), updated_at: at })];
      case 'expenses.ExpenseRateDeleted':
        return [op.update('expense_rates', { id: e.data.id }, { deleted: true, updated_at: at })];
      default:
        return [];
    }
  }
}

function rateRow(d: RateData) {
  return {
    id: d.id, organisation_id: d.organisationId, description: d.description, short_name: d.shortName, start_date: d.startDate, end_date: d.endDate,
    rate: d.rate, passenger_rate: d.passengerRate, max_miles: d.maxMiles, order_id: d.orderId,
  };
}

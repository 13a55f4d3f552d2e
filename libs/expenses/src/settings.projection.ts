import { Injectable } from '@nestjs/common';
import { AsProjection, type DataOf, defineProjection, op } from '#app/event-store';
import type { RateData, SettingsEvent } from './expenses.events.js';

type TypeData = DataOf<SettingsEvent, 'expenses.ExpenseTypeCreated'>;

/** Expense types and rates. Deleted ones stay (expenses keep them) but leave the lists. */
@AsProjection()
@Injectable()
export class ExpenseSettingsProjection extends defineProjection<SettingsEvent>({
  name: 'expenses.settings',
  version: 1,
  tables: ['expense_types', 'expense_rates'],
  on: {
    'expenses.ExpenseTypeCreated': ({ data: d }) => [typeRow(d)],
    'expenses.ExpenseTypeChanged': ({ data: d }) => [typeRow(d)],
    'expenses.ExpenseTypeDeleted': ({ data: d }) => [op.update('expense_types', { id: d.id }, { deleted: true })],
    'expenses.ExpenseRateCreated': ({ data: d, recordedAt: at }) => [
      op.upsert('expense_rates', ['id'], { ...rateRow(d), created_at: at, updated_at: at, deleted: false }),
    ],
    'expenses.ExpenseRateChanged': ({ data: d, recordedAt: at }) => [
      op.update('expense_rates', { id: d.id }, { ...rateRow(d), updated_at: at }),
    ],
    'expenses.ExpenseRateDeleted': ({ data: d, recordedAt: at }) => [
      op.update('expense_rates', { id: d.id }, { deleted: true, updated_at: at }),
    ],
  },
}) {}

function typeRow(d: TypeData) {
  return op.upsert('expense_types', ['id'], {
    id: d.id,
    organisation_id: d.organisationId,
    name: d.name,
    order_id: d.position,
    deleted: false,
  });
}

function rateRow(d: RateData) {
  return {
    id: d.id,
    organisation_id: d.organisationId,
    description: d.description,
    short_name: d.shortName,
    start_date: d.startDate,
    end_date: d.endDate,
    rate: d.rate,
    passenger_rate: d.passengerRate,
    max_miles: d.maxMiles,
    order_id: d.orderId,
  };
}

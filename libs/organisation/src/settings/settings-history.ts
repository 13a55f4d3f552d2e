import { Injectable } from '@nestjs/common';
import { defineHistory, HistoryReader } from '#app/event-store';
import { type Caller, UserBases } from '#app/identity';
import type { PageRequest } from '#app/platform';
import { SECRETS } from './fields.js';
import { type SettingsEvent, settingsStream } from './settings.events.js';
import { readableBy } from './settings-views.js';

/** A change's fields as the history shows them: a secret (sealed in the log) only as changed or cleared. */
export const SETTINGS_HISTORY = defineHistory<SettingsEvent>({
  'organisation.SettingsChanged': ({ data: { changes } }) =>
    Object.fromEntries(
      Object.entries(changes).map(([k, v]) => [k, k in SECRETS ? (v === null ? '(cleared)' : '(changed)') : v]),
    ),
});

/**
 * Who changed which settings when, newest first: the organisation's settings stream read by the
 * record-history reader every context uses, in this route's own answer shape (changed_at,
 * changed_by, fields), which predates the shared `{ at, actor, action, changes }`.
 */
@Injectable()
export class SettingsHistory {
  constructor(
    private readonly reader: HistoryReader,
    private readonly users: UserBases,
  ) {}

  async page(caller: Caller, page: PageRequest) {
    const { items, total } = await this.reader.page(
      settingsStream(caller.organisationId),
      SETTINGS_HISTORY,
      page,
      (ids) => this.users.of(caller, ids, 'manage-organisation'),
      'newest first',
    );
    // As the detailed view answers this caller: a field their permissions do not reach is left
    // out of each change (an entry stays, with the fields they may read, so pages do not shift).
    const visible = (changes: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(changes).filter(([name]) => readableBy(caller, name)));
    return { items: items.map((e) => ({ changed_at: e.at, changed_by: e.actor, fields: visible(e.changes) })), total };
  }
}

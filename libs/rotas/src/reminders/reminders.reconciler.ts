import { Injectable } from '@nestjs/common';
import { AsReconciler, type Reconciles } from '#app/event-store';
import { OutboxMailer } from '#app/platform';
import { reminderMailKey } from './reminder-plan.js';
import { ReminderQueries } from './reminder.queries.js';
import { Reminders } from './reminders.processor.js';

const CHUNK = 100;

/**
 * The delayed reminders live in the queue only; the shifts say which are owed (docs/adr/0009-postgresql-records-owed-work.md).
 * On each full reconciliation (start, hourly, a queue that lost its data) every upcoming booked
 * shift's reminder is planned again, as a change of the setting would: a job still waiting keeps
 * its id (the queue adds nothing), a lost one comes back at its due time, and one due already is
 * sent now unless the outbox holds it.
 */
@AsReconciler()
@Injectable()
export class ReminderReconciler implements Reconciles {
  constructor(
    private readonly reminders: Reminders,
    private readonly queries: ReminderQueries,
    private readonly outbox: OutboxMailer,
  ) {}

  async reconcile(): Promise<void> {
    const now = new Date();
    for (const organisationId of await this.queries.organisationsWithUpcoming(now)) {
      const hours = await this.reminders.hours(organisationId, true);
      if (hours <= 0) continue;
      const shifts = await this.queries.upcoming({ organisationId }, now);
      for (let i = 0; i < shifts.length; i += CHUNK) {
        const planned = shifts.slice(i, i + CHUNK).flatMap(({ id, start }) => {
          const step = this.reminders.step({ booked: true, start }, start, hours, now);
          return step.kind === 'none' ? [] : [{ shiftId: id, start, until: step.kind === 'wait' ? step.until : now }];
        });
        const sent = await this.outbox.recorded(planned.map((p) => reminderMailKey(p.shiftId, p.start)));
        const owed = planned.filter((p) => !sent.has(reminderMailKey(p.shiftId, p.start)));
        if (owed.length > 0) await this.reminders.schedule(organisationId, owed);
      }
    }
  }
}

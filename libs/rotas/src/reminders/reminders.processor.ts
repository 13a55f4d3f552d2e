import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DelayedError, type Job, type Queue } from 'bullmq';
import { AsReconciler, type Reconciles } from '#app/event-store';
import { UserBases } from '#app/identity';
import { SettingsViews } from '#app/organisation';
import {
  APP_CONFIG,
  type AppConfig,
  DATABASE_ENDPOINT,
  type DatabaseEndpoint,
  OutboxMailer,
  type Tenant,
} from '#app/platform';
import {
  REMINDER_SETTING,
  reminderHours,
  reminderJobId,
  reminderMail,
  reminderMailKey,
  type ReminderShift,
  type ReminderStep,
  reminderStep,
} from './reminder-plan.js';
import { ReminderQueries, type ReminderShiftRow } from './reminder.queries.js';
import { type PlanJob, REMINDER_PLANS, ROTA_REMINDERS } from './reminders.reactor.js';

/*
 * Shift reminders in the worker (docs/rota-domain.md#reminders; reminder-plan.ts
 * says when and whether):
 *
 * - A plan job (one per shift event) reads the shift as it is now: a reminder already due is sent
 *   at once, a later one becomes a delayed REMIND job named by the shift and its start
 *   (reminderJobId), and a cancelled shift's pending one is removed. A move leaves the old time's
 *   job in place: it finds the shift starts at another time when it fires, and does nothing.
 * - A REMIND job checks everything again when it fires (the shift booked at the same start, the
 *   setting not "0", the due time still past) and sends through the outbox under
 *   reminderMailKey: once per shift time, across retries, restarts, moves back and a setting
 *   switched off and on again.
 * - A change of shift_reminder_hours reschedules every upcoming shift of the organisation: each
 *   job is removed and added again at its new time (or not, for "0"), so a longer window is not
 *   late; a job already running when the window shrank waits again under its own id.
 */

export const REMIND = 'remind';
/** A REMIND job: the shift and the start instant (ISO 8601) it reminds of. */
export interface RemindData {
  readonly organisationId: number;
  readonly shiftId: number;
  readonly start: string;
}

/**
 * Done reminder jobs go at once, so the same shift time can be scheduled again (a move back, a new
 * setting); the outbox still sends it once. Failed ones stay a week to be looked at.
 */
const REMIND_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: true,
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;
/** Upcoming shifts rescheduled at a time when the setting changes. */
const CHUNK = 100;

/** What both processors do: read the shift and the setting, decide, schedule or send. */
@Injectable()
export class Reminders {
  constructor(
    private readonly settings: SettingsViews,
    private readonly users: UserBases,
    private readonly mailer: OutboxMailer,
    @InjectQueue(ROTA_REMINDERS) private readonly queue: Queue<RemindData>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The organisation's shift_reminder_hours; `fresh` when acting on a change of it (SettingsViews.values). */
  async hours(organisationId: number, fresh = false): Promise<number> {
    return reminderHours((await this.settings.values(organisationId, [REMINDER_SETTING], { fresh }))[REMINDER_SETTING]);
  }

  step(shift: ReminderShift | undefined, start: Date, hours: number, now = new Date()): ReminderStep {
    return reminderStep(shift, start, hours, this.config.reminders.hourMs, now);
  }

  /** Delayed REMIND jobs, `until` their due times (now: at once); an id already waiting is kept. */
  async schedule(
    organisationId: number,
    reminders: readonly { shiftId: number; start: Date; until: Date }[],
  ): Promise<void> {
    const now = Date.now();
    await this.queue.addBulk(
      reminders.map(({ shiftId, start, until }) => ({
        name: REMIND,
        data: { organisationId, shiftId, start: start.toISOString() },
        opts: { ...REMIND_OPTIONS, jobId: reminderJobId(shiftId, start), delay: Math.max(0, until.getTime() - now) },
      })),
    );
  }

  /** Drops a shift time's waiting job; one running already (locked) checks the shift itself. */
  async unschedule(shiftId: number, start: Date): Promise<void> {
    await this.queue.remove(reminderJobId(shiftId, start));
  }

  /** The reminder of the shift's time, to the shift's user, once. A user without an address is not reminded. */
  async send(tenant: Tenant, shift: ReminderShiftRow): Promise<void> {
    const [emails, names] = await Promise.all([
      this.users.emailsOf(tenant, [shift.userId]),
      this.users.displayNames(tenant, [shift.userId]),
    ]);
    const to = emails.get(shift.userId);
    if (!to) return;
    const message = reminderMail({
      to,
      userName: names.get(shift.userId) ?? '',
      rotaName: shift.rotaName,
      startWall: shift.startWall,
      endWall: shift.endWall,
    });
    await this.mailer.sendOnce(reminderMailKey(shift.id, shift.start), message);
  }
}

/** The reactor's plan jobs: one shift's reminder after its event, or the organisation's after a setting change. */
@Processor(REMINDER_PLANS)
export class ReminderPlanProcessor extends WorkerHost {
  constructor(
    private readonly reminders: Reminders,
    private readonly queries: ReminderQueries,
  ) {
    super();
  }

  async process(job: Job<PlanJob>): Promise<void> {
    const { organisationId, shiftId } = job.data;
    await (shiftId === null ? this.planOrganisation(organisationId) : this.planShift({ organisationId }, shiftId));
  }

  /** The setting is read through the cache: a change of it reschedules afterwards with a fresh read. */
  private async planShift(tenant: Tenant, shiftId: number): Promise<void> {
    const [shift, hours] = await Promise.all([
      this.queries.shift(tenant, shiftId),
      this.reminders.hours(tenant.organisationId),
    ]);
    if (!shift) return;
    const step = this.reminders.step(shift, shift.start, hours);
    if (step.kind === 'send') await this.reminders.send(tenant, shift);
    else if (step.kind === 'wait')
      await this.reminders.schedule(tenant.organisationId, [{ shiftId, start: shift.start, until: step.until }]);
    else if (!shift.booked) await this.reminders.unschedule(shiftId, shift.start);
  }

  /**
   * Every upcoming shift's reminder at the new setting: removed, then added again at its new due
   * time (at once when that has passed: the REMIND job sends, or finds it sent). The outbox keeps
   * a time already reminded from being reminded again.
   */
  private async planOrganisation(organisationId: number): Promise<void> {
    const now = new Date();
    const [hours, shifts] = await Promise.all([
      this.reminders.hours(organisationId, true),
      this.queries.upcoming({ organisationId }, now),
    ]);
    for (let i = 0; i < shifts.length; i += CHUNK) {
      const chunk = shifts.slice(i, i + CHUNK);
      await Promise.all(chunk.map((s) => this.reminders.unschedule(s.id, s.start)));
      const due = chunk.flatMap(({ id, start }) => {
        const step = this.reminders.step({ booked: true, start }, start, hours, now);
        return step.kind === 'none' ? [] : [{ shiftId: id, start, until: step.kind === 'wait' ? step.until : now }];
      });
      if (due.length > 0) await this.reminders.schedule(organisationId, due);
    }
  }
}

/** REMIND jobs as they come due, and the tick (ReminderTick) that only wakes this worker. */
@Processor(ROTA_REMINDERS)
export class ReminderProcessor extends WorkerHost {
  constructor(
    private readonly reminders: Reminders,
    private readonly queries: ReminderQueries,
  ) {
    super();
  }

  async process(job: Job<RemindData>, token?: string): Promise<void> {
    if (job.name !== REMIND) return;
    const { organisationId, shiftId } = job.data;
    const start = new Date(job.data.start);
    const [shift, hours] = await Promise.all([
      this.queries.shift({ organisationId }, shiftId),
      this.reminders.hours(organisationId),
    ]);
    const step = this.reminders.step(shift, start, hours);
    if (step.kind === 'send') await this.reminders.send({ organisationId }, shift!);
    if (step.kind === 'wait') {
      // The window shrank after this job was scheduled: it waits again, under the same id.
      await job.moveToDelayed(step.until.getTime(), token);
      throw new DelayedError();
    }
  }
}

const TICK = 'tick';
export const REMINDER_TICK_SCHEDULER = 'rotas-reminders-tick';

/**
 * In the embedded mode (BullMQ on PGlite) nothing wakes a sleeping worker when a job is added: it
 * sleeps until its queue's next delayed job, so a reminder scheduled before the earliest one
 * waiting would be late by up to an hour (the backend's longest sleep). A job scheduler that adds a
 * no-op job every minute (an hour's sixtieth, at least a second, when REMINDER_HOUR_MS shortens the
 * hour in tests) bounds that to a minute. Redis and a PostgreSQL server notify the worker, so
 * there the scheduler is removed.
 */
@Injectable()
@AsReconciler()
export class ReminderTick implements OnApplicationBootstrap, Reconciles {
  constructor(
    @InjectQueue(ROTA_REMINDERS) private readonly queue: Queue,
    @Inject(DATABASE_ENDPOINT) private readonly database: DatabaseEndpoint,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Ensured again on each full reconciliation: the queue may have forgotten it (docs/adr/0009). */
  reconcile(): Promise<void> {
    return this.onApplicationBootstrap();
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.queue.redisUrl || !this.database.embedded) {
      await this.queue.removeJobScheduler(REMINDER_TICK_SCHEDULER);
      return;
    }
    const every = Math.min(60_000, Math.max(1_000, Math.round(this.config.reminders.hourMs / 60)));
    await this.queue.upsertJobScheduler(
      REMINDER_TICK_SCHEDULER,
      { every },
      { name: TICK, data: {}, opts: { removeOnComplete: true, removeOnFail: true } },
    );
  }
}

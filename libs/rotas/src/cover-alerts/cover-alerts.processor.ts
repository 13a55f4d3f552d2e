import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { AsReconciler, type ReconcileReason, type Reconciles } from '#app/event-store';
import { OrganisationFactsReader, Teams, UserBases } from '#app/identity';
import { SettingsViews } from '#app/organisation';
import { groupBy, OutboxMailer, type Tenant } from '#app/platform';
import { addDays } from '../domain/calendar-dates.js';
import type { RotaForBooking } from '../booking/rota-row.js';
import {
  COVER_ALERT_SETTING,
  coverAlertDays,
  coverAlertJobId,
  coverAlertKey,
  coverAlertMail,
  coverWindow,
  type Recipient,
  recipientsOf,
  type ShortOccurrence,
  shortOccurrences,
  volunteerPool,
  windowDates,
} from './cover-alert-plan.js';
import { CoverAlertQueries } from './cover-alert.queries.js';
import { COVER_ALERTS, COVER_SWEEP, type CoverPlanData, PLAN_COVER } from './cover-alerts.reactor.js';

/*
 * Cover alerts in the worker (docs/rota-domain.md#cover-alerts; cover-alert-plan.ts decides):
 *
 * - A plan job (a shift cancelled or moved, a rota change, the setting changed; the hourly sweep
 *   plans every organisation itself) reads the watched rotas and their shifts in two statements
 *   and adds one ALERT job per occurrence below minimum, named by the occurrence: one waits at a
 *   time, so two jobs never send to one person at once.
 * - An ALERT job judges its occurrence again as it is now, chooses its recipients (contacts; the
 *   volunteers identity answers in one statement, less those the rota's shifts say are booked
 *   then) and sends each through the outbox under coverAlertKey: once per person and occurrence,
 *   across retries, restarts, and the occurrence filling and dropping again. Before each mail
 *   after the first it judges the occurrence once more: none goes once it is covered. A plan
 *   adding the job while it runs is ignored by BullMQ, so it then looks again for anyone new.
 */

export const ALERT_COVER = 'alert-cover';
/** An ALERT job: one occurrence, by rota, local date and start instant (epoch ms). */
export interface CoverAlertData {
  readonly organisationId: number;
  readonly rotaId: number;
  readonly date: string;
  readonly start: number;
}

/** Done alert jobs go at once, so the occurrence may be judged again by a later plan; the outbox sends each key once. */
const ALERT_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: true,
  removeOnFail: true,
} as const;
/** An ALERT job's rounds (CoverAlerts.alert): one, and again while someone new is found. */
const ALERT_ROUNDS = 5;

/** What the plan and alert jobs share: the setting, the window, the reads, the sends. */
@Injectable()
export class CoverAlerts {
  constructor(
    private readonly settings: SettingsViews,
    private readonly organisations: OrganisationFactsReader,
    private readonly teams: Teams,
    private readonly users: UserBases,
    private readonly queries: CoverAlertQueries,
    private readonly mailer: OutboxMailer,
    @InjectQueue(COVER_ALERTS) private readonly queue: Queue<CoverAlertData>,
  ) {}

  /** The organisation's cover_alert_days; `fresh` when acting on a change of it (SettingsViews.values). */
  async days(organisationId: number, fresh = false): Promise<number> {
    const values = await this.settings.values(organisationId, [COVER_ALERT_SETTING], { fresh });
    return coverAlertDays(values[COVER_ALERT_SETTING]);
  }

  /** Adds an ALERT job for each watched occurrence of the rota (or every rota) below minimum now. Answers how many. */
  async plan(organisationId: number, rotaId: number | null, fresh = false): Promise<number> {
    const tenant = { organisationId };
    const days = await this.days(organisationId, fresh);
    if (days <= 0) return 0;
    const { timezone: zone } = await this.organisations.of(tenant);
    const window = coverWindow(Date.now(), days);
    const [fromDate, toDate] = windowDates(window, zone);
    const rotas = await this.queries.rotas(tenant, zone, rotaId, fromDate, toDate);
    const shifts = groupBy(
      await this.queries.shifts(
        tenant,
        rotas.map((r) => r.id),
        addDays(fromDate, -1),
        toDate,
      ),
      (s) => s.rotaId,
    );
    const jobs = rotas.flatMap((rota) =>
      shortOccurrences(rota.calendar, zone, shifts.get(rota.id) ?? [], window).map(({ occurrence }) => ({
        name: ALERT_COVER,
        data: { organisationId, rotaId: rota.id, date: occurrence.date, start: occurrence.start },
        opts: { ...ALERT_OPTIONS, jobId: coverAlertJobId(organisationId, rota.id, occurrence) },
      })),
    );
    if (jobs.length > 0) await this.queue.addBulk(jobs);
    return jobs.length;
  }

  /** The occurrence as it is now, when it is still watched and below minimum; else null. */
  async shortNow({ organisationId, rotaId, date, start }: CoverAlertData): Promise<{
    rota: RotaForBooking;
    short: ShortOccurrence;
  } | null> {
    const tenant = { organisationId };
    // Past the cache: a plan just made on a new setting must not be judged by the old one.
    const days = await this.days(organisationId, true);
    if (days <= 0) return null;
    const { timezone: zone } = await this.organisations.of(tenant);
    const [rota] = await this.queries.rotas(tenant, zone, rotaId, date, date);
    if (!rota) return null;
    const shifts = await this.queries.shifts(tenant, [rotaId], addDays(date, -1), date);
    const short = shortOccurrences(rota.calendar, zone, shifts, coverWindow(Date.now(), days), date).find(
      (s) => s.occurrence.start === start,
    );
    return short ? { rota, short } : null;
  }

  /** Who hears of it: the contacts, and on a self-managed rota the volunteers free to book it (docs/rota-domain.md#cover-alerts). */
  async recipients(tenant: Tenant, rota: RotaForBooking, { occurrence }: ShortOccurrence): Promise<Recipient[]> {
    const pool = volunteerPool(rota);
    const volunteers = async () => {
      if (!pool) return [];
      const booked = await this.queries.bookedDuring(tenant, occurrence.date, occurrence.start, occurrence.end);
      const members = await this.teams.activeMembers(tenant, pool.teamId, {
        profiles: pool.profiles,
        excluding: booked,
      });
      return members.map((m) => ({ id: m.id, email: m.email, name: m.displayName }));
    };
    const contacts = await this.queries.contacts(tenant, rota.id);
    const [emails, names, eligible] = await Promise.all([
      this.users.emailsOf(tenant, contacts),
      this.users.displayNames(tenant, contacts),
      volunteers(),
    ]);
    const people = contacts.map((id) => ({ id, email: emails.get(id) ?? '', name: names.get(id) ?? '' }));
    return recipientsOf(people, eligible);
  }

  /**
   * The ALERT job: each recipient not yet alerted of the occurrence, once, while it is still below
   * minimum. A trigger arriving while it runs is dropped (the occurrence's job id is taken), so it
   * then judges the occurrence and its recipients again and alerts whoever is new (freed by a
   * cancellation meanwhile), until a round sends nothing: at most ALERT_ROUNDS, the sweep does the rest.
   */
  async alert(data: CoverAlertData): Promise<number> {
    let sent = 0;
    for (let round = 0; round < ALERT_ROUNDS; round++) {
      const more = await this.alertRound(data);
      if (more === 0) break;
      sent += more;
    }
    return sent;
  }

  /** One round of the ALERT job: the recipients as they are now, less those already alerted. */
  private async alertRound(data: CoverAlertData): Promise<number> {
    let now = await this.shortNow(data);
    if (!now) return 0;
    const tenant = { organisationId: data.organisationId };
    const recipients = await this.recipients(tenant, now.rota, now.short);
    const key = (r: Recipient) => coverAlertKey(data.organisationId, data.rotaId, now!.short.occurrence, r.id);
    const done = await this.mailer.recorded(recipients.map(key));
    let sent = 0;
    for (const recipient of recipients.filter((r) => !done.has(key(r)))) {
      // Judged again before every mail but the first (judged just now): none goes once it is covered.
      if (sent > 0 && !(now = await this.shortNow(data))) break;
      if ((await this.mailer.sendOnce(key(recipient), coverAlertMail(now.rota.name, now.short, recipient))) === 'sent')
        sent++;
    }
    return sent;
  }
}

/** The reactor's plan jobs and the ALERT jobs they add. */
@Processor(COVER_ALERTS)
export class CoverAlertProcessor extends WorkerHost {
  constructor(private readonly alerts: CoverAlerts) {
    super();
  }

  async process(job: Job<CoverPlanData | CoverAlertData>): Promise<number> {
    if (job.name === ALERT_COVER) return this.alerts.alert(job.data as CoverAlertData);
    if (job.name !== PLAN_COVER) return 0;
    const { organisationId, rotaId } = job.data as CoverPlanData;
    // A change of the setting is read past the cache (another process's cache hears of it a moment later).
    return this.alerts.plan(organisationId, rotaId, rotaId === null);
  }
}

const SWEEP = 'sweep';
export const COVER_SWEEP_SCHEDULER = 'rotas-cover-sweep';
/** Hourly: days enter the window as time passes, with no event to say so. */
export const COVER_SWEEP_EVERY_MS = 3_600_000;
const SWEEP_OPTIONS = { removeOnComplete: { age: 24 * 3600 }, removeOnFail: { age: 7 * 24 * 3600 } } as const;

/** The hourly sweep: every organisation with a live rota is planned, as a change of its setting would be. */
@Processor(COVER_SWEEP)
export class CoverSweepProcessor extends WorkerHost {
  constructor(
    private readonly alerts: CoverAlerts,
    private readonly queries: CoverAlertQueries,
  ) {
    super();
  }

  async process(): Promise<number> {
    // Yesterday in UTC: no zone's today is earlier.
    const since = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    let planned = 0;
    for (const organisationId of await this.queries.organisationsWithLiveRotas(since))
      planned += await this.alerts.plan(organisationId, null, true);
    return planned;
  }
}

/**
 * Registers the hourly sweep when the worker starts and on each full reconciliation (an upsert:
 * idempotent across restarts and workers; a Redis that came back empty has it again). After such a
 * loss a sweep runs at once too: an alert job may have been among what was lost.
 */
@AsReconciler()
@Injectable()
export class CoverSweepScheduler implements OnApplicationBootstrap, Reconciles {
  private readonly logger = new Logger(CoverSweepScheduler.name);

  constructor(@InjectQueue(COVER_SWEEP) private readonly queue: Queue) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.ensure();
    this.logger.log('cover alerts swept hourly');
  }

  async reconcile(reason: ReconcileReason): Promise<void> {
    await this.ensure();
    if (reason === 'lost')
      await this.queue.add(SWEEP, {}, { ...SWEEP_OPTIONS, jobId: `cover-sweep-catch-up-${Date.now()}` });
  }

  private async ensure(): Promise<void> {
    await this.queue.upsertJobScheduler(
      COVER_SWEEP_SCHEDULER,
      { every: COVER_SWEEP_EVERY_MS },
      { name: SWEEP, data: {}, opts: SWEEP_OPTIONS },
    );
  }
}

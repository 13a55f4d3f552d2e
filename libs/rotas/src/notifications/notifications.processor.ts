import { Processor } from '@nestjs/bullmq';
import { Inject } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { type Cause, CausedJobProcessor, EventStore } from '#app/event-store';
import { Hierarchy, OrganisationFactsReader, Teams, UserBases } from '#app/identity';
import { APP_CONFIG, type AppConfig, OutboxMailer, type Tenant } from '#app/platform';
import { ContactQueries } from '../rota/contacts.queries.js';
import { ShiftSystemQueries } from '../booking/shift-system.queries.js';
import {
  composeMails,
  type MailedEvent,
  mailedTypes,
  type NotificationPlan,
  planNotifications,
  plansMail,
  ROTA_CHANGE_TYPES,
  type RotaChangeEvent,
} from './notification-plan.js';
import { type NotificationJobData, ROTA_NOTIFICATIONS } from './notifications.reactor.js';
import { CalendarUidDomain } from './calendar-uid-domain.js';

/**
 * The shift e-mails of one request (notification-plan.ts says who gets what), once per cause even
 * across restarts.
 *
 * One request is one write, so one transaction: a handler appends all its events together (a rota
 * change with the cancellations it causes), and so does a worker job's command.
 * The reactor gives a transaction one job, its first mailed event's (`perTransaction`), and that
 * job sends the e-mails of the whole transaction. A transaction's events become visible together,
 * so the job sees all of them, with no delay to wait out; and only one job ever sends for a
 * request, so two workers cannot race to send its e-mails twice.
 *
 * Each e-mail goes through the outbox under a key made of that first event's id and the recipient:
 * a job retried or run again after a restart sends nothing it sent before (OutboxMailer.sendOnce).
 *
 * Grouping by the request's correlation id instead was weighed and left: a client may send the same
 * X-Request-Id twice (it would merge, or drop, the mails of two requests), and a chain of worker
 * writes commits at different times, so whichever job sent first would miss what came later.
 */
@Processor(ROTA_NOTIFICATIONS)
export class NotificationsProcessor extends CausedJobProcessor<NotificationJobData> {
  protected readonly reason = 'shift notifications';

  constructor(
    private readonly store: EventStore,
    private readonly mailer: OutboxMailer,
    private readonly shifts: ShiftSystemQueries,
    private readonly contacts: ContactQueries,
    private readonly organisations: OrganisationFactsReader,
    private readonly users: UserBases,
    private readonly teams: Teams,
    private readonly hierarchy: Hierarchy,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly uidDomain: CalendarUidDomain,
    commands: CommandBus,
  ) {
    super(commands);
  }

  protected async react({ transactionId, organisationId }: NotificationJobData, cause: Cause): Promise<void> {
    const types = mailedTypes(cause.event.metadata);
    // With the rota changes of the request: the cancellations they caused are the rota's doing.
    const events = (await this.store.readTransaction(transactionId, {
      types: [...types, ...ROTA_CHANGE_TYPES],
    })) as unknown as (MailedEvent | RotaChangeEvent)[];
    const plan = planNotifications(events.filter((e) => e.data.organisationId === organisationId));
    if (!plansMail(plan)) return;
    const mails = composeMails(plan, {
      ...(await this.facts({ organisationId }, plan)),
      requestKey: cause.event.eventId,
      organisationId,
    });
    // One recipient's failure must not keep the others from their mail; the job fails after, so BullMQ retries it.
    const failures: unknown[] = [];
    for (const { key, message } of mails)
      await this.mailer.sendOnce(key, message).catch((error: unknown) => failures.push(error));
    if (failures.length > 0)
      throw new AggregateError(failures, `${failures.length} of ${mails.length} shift e-mails failed`);
  }

  /** Everything the plan's e-mails name: shifts' rows, rotas, teams, people, and who watches a rota with a self-cancellation. */
  private async facts(tenant: Tenant, plan: NotificationPlan) {
    const planned = [
      ...plan.volunteers.flatMap((n) => n.changes),
      ...plan.selfCancelled.flatMap((n) => n.shifts),
      ...plan.standInWanted,
      ...plan.standInFound,
    ];
    const wantedRotas = [...new Set(plan.standInWanted.map((n) => n.rotaId))];
    const rotaIds = [...new Set(planned.map((c) => c.rotaId))];
    const [rows, rotas, { timezone: zone }] = await Promise.all([
      this.shifts.shifts(tenant, [...new Set(planned.map((c) => c.shiftId))]),
      this.contacts.rotas(tenant, rotaIds),
      this.organisations.of(tenant),
    ]);
    const [rotaWatchers, rotaContacts] = await Promise.all([
      this.watchers(tenant, plan, new Map([...rotas].map(([id, r]) => [id, r.teamId]))),
      wantedRotas.length ? this.shifts.contactUsers(tenant, wantedRotas) : new Map<number, number[]>(),
    ]);
    const people = [
      ...new Set([
        ...plan.volunteers.flatMap((n) => [n.userId, ...(n.actorUserId === null ? [] : [n.actorUserId])]),
        ...plan.selfCancelled.map((n) => n.userId),
        ...plan.standInWanted.map((n) => n.userId),
        ...plan.standInFound.flatMap((n) => [n.fromUserId, n.toUserId]),
        ...[...rotaWatchers.values()].flat(),
        ...[...rotaContacts.values()].flat(),
      ]),
    ];
    const [emails, names, teams] = await Promise.all([
      this.users.emailsOf(tenant, people),
      this.users.displayNames(tenant, people),
      this.teams.objects(tenant, [...new Set([...rows.values()].map((r) => r.teamId))]),
    ]);
    return {
      zone,
      host: await this.uidDomain.get(),
      now: new Date(),
      organizer: this.config.mail.from,
      shifts: rows,
      rotaNames: new Map([...rotas].map(([id, r]) => [id, r.name])),
      teamNames: new Map([...teams].map(([id, t]) => [id, t.name])),
      emails,
      names,
      rotaWatchers,
      rotaContacts,
    };
  }

  /** The contacts of each rota with a self-cancellation, and the managers with add-user-shifts over its team (a role in it or above it). */
  private async watchers(
    tenant: Tenant,
    plan: NotificationPlan,
    teamOf: ReadonlyMap<number, number>,
  ): Promise<Map<number, number[]>> {
    const rotaIds = [...new Set(plan.selfCancelled.flatMap((n) => n.shifts.map((s) => s.rotaId)))];
    if (rotaIds.length === 0) return new Map();
    const teamIds = [...new Set(rotaIds.flatMap((id) => teamOf.get(id) ?? []))];
    const [contacts, managers] = await Promise.all([
      this.shifts.contactUsers(tenant, rotaIds),
      this.hierarchy.holdersOverTeams(tenant, teamIds, 'add-user-shifts'),
    ]);
    return new Map(
      rotaIds.map((rotaId) => {
        const team = teamOf.get(rotaId);
        return [
          rotaId,
          [...new Set([...(contacts.get(rotaId) ?? []), ...(team === undefined ? [] : (managers.get(team) ?? []))])],
        ];
      }),
    );
  }
}

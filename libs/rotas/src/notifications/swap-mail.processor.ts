import { Processor } from '@nestjs/bullmq';
import { Inject } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { type Cause, CausedJobProcessor, EventStore } from '#app/event-store';
import { OrganisationFactsReader, Teams, UserBases } from '#app/identity';
import { APP_CONFIG, type AppConfig, OutboxMailer } from '#app/platform';
import { ShiftSystemQueries } from '../booking/shift-system.queries.js';
import { ContactQueries } from '../rota/contacts.queries.js';
import { type ShiftEvent, type ShiftSwapEvent, streamOf } from '../rotas.events.js';
import { evolve } from '../swap/shift-swap.js';
import { CalendarUidDomain } from './calendar-uid-domain.js';
import type { MailShift } from './shift-mail.js';
import { swapAcceptedMail, swapProposedMail } from './swap-mail.js';
import { SWAP_MAIL, type SwapMailJobData } from './swap-mail.reactor.js';

type HandedOver = Extract<ShiftEvent, { type: 'rotas.ShiftHandedOver' }>;

/**
 * The swap e-mails (swap-mail.ts), each once through the outbox under a key made of the causing
 * event and the recipient. The shifts are read as they stand (an accepted swap's shifts as the
 * accept left them: its hand-overs give each one's calendar SEQUENCE).
 */
@Processor(SWAP_MAIL)
export class SwapMailProcessor extends CausedJobProcessor<SwapMailJobData> {
  protected readonly reason = 'swap notifications';

  constructor(
    private readonly store: EventStore,
    private readonly mailer: OutboxMailer,
    private readonly shifts: ShiftSystemQueries,
    private readonly contacts: ContactQueries,
    private readonly organisations: OrganisationFactsReader,
    private readonly users: UserBases,
    private readonly teams: Teams,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly uidDomain: CalendarUidDomain,
    commands: CommandBus,
  ) {
    super(commands);
  }

  protected async react({ swapId, organisationId, kind, transactionId }: SwapMailJobData, cause: Cause): Promise<void> {
    const tenant = { organisationId };
    const events = (await this.store.readStream(streamOf.swap(swapId))) as unknown as ShiftSwapEvent[];
    const swap = events.reduce(evolve, null);
    if (!swap) return;
    const handOvers =
      kind === 'accepted' ? await this.store.readTransaction(transactionId, { types: ['rotas.ShiftHandedOver'] }) : [];
    const sequence = new Map((handOvers as unknown as HandedOver[]).map((e) => [e.data.id, e.data.sequence]));
    const people = [swap.shift.userId, swap.with.userId];
    const [rows, rotas, { timezone: zone }, emails, names] = await Promise.all([
      this.shifts.shifts(tenant, [swap.shift.shiftId, swap.with.shiftId]),
      this.contacts.rotas(tenant, [swap.shift.rotaId, swap.with.rotaId]),
      this.organisations.of(tenant),
      this.users.emailsOf(tenant, people),
      this.users.displayNames(tenant, people),
    ]);
    const teams = await this.teams.objects(tenant, [...new Set([...rows.values()].map((r) => r.teamId))]);
    const mailShift = (id: number, status: MailShift['status']): MailShift | null => {
      const row = rows.get(id);
      return row
        ? {
            id,
            organisationId,
            rotaName: rotas.get(row.rotaId)?.name ?? '',
            teamName: teams.get(row.teamId)?.name ?? '',
            start: new Date(row.start),
            end: new Date(row.end),
            zone,
            sequence: sequence.get(id) ?? 0,
            status,
            localStart: row.startWall,
            localEnd: row.endWall,
          }
        : null;
    };
    const person = (userId: number) => {
      const email = emails.get(userId);
      return email ? { email, name: names.get(userId) ?? '' } : null;
    };
    const mails = [];
    if (kind === 'proposed') {
      const [to, offered, asked] = [
        person(swap.with.userId),
        mailShift(swap.shift.shiftId, 'booked'),
        mailShift(swap.with.shiftId, 'booked'),
      ];
      if (to && offered && asked)
        mails.push({
          key: `rotas-swap-proposed-${cause.event.eventId}`,
          message: swapProposedMail(to, names.get(swap.shift.userId) ?? '', offered, asked),
        });
    } else {
      const [host, now] = [await this.uidDomain.get(), new Date()];
      for (const [userId, gainedId, gaveUpId] of [
        [swap.shift.userId, swap.with.shiftId, swap.shift.shiftId],
        [swap.with.userId, swap.shift.shiftId, swap.with.shiftId],
      ] as const) {
        const [to, gained, gaveUp] = [person(userId), mailShift(gainedId, 'booked'), mailShift(gaveUpId, 'cancelled')];
        if (to && gained && gaveUp)
          mails.push({
            key: `rotas-swap-accepted-${cause.event.eventId}-${userId}`,
            message: swapAcceptedMail({ to, gained, gaveUp, host, now, organizer: this.config.mail.from }),
          });
      }
    }
    for (const { key, message } of mails) await this.mailer.sendOnce(key, message);
  }
}

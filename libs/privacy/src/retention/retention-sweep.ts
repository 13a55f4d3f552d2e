import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { systemActor } from '#app/event-store';
import { type OrganisationSummary, UnknownOrganisation, UserAccounts } from '#app/identity';
import { SettingsViews } from '#app/organisation';
import { OutboxMailer, todayIn } from '#app/platform';
import { AnonymiseUsersCommand } from '../anonymise/anonymise-users.command.js';
import { retentionMonths, retentionStep } from './due-date.js';
import { RetentionQueries } from './retention.queries.js';
import { warningMail, warningMailKey } from './warning-mail.js';

export const RETENTION_SETTING = 'anonymise_users_after';

/** One user a sweep on that date would anonymise (`privacy:due`). */
export interface DueUser {
  readonly organisation: string;
  readonly user_id: number;
  readonly email: string;
  readonly last_activity: string;
  readonly due_on: string;
}

export interface SweepResult {
  readonly warned: number[];
  readonly anonymised: number[];
}

export interface SweepOptions {
  /** The date the sweep runs as (`YYYY-MM-DD`); default each organisation's today in its zone. */
  readonly asOf?: string;
  /** One organisation's slug; default every organisation. */
  readonly org?: string;
}

interface Planned {
  readonly warn: { userId: number; dueOn: string; email: string; name: string }[];
  readonly due: DueUser[];
}

/**
 * The retention sweep (docs/privacy.md#retention), per organisation: under `anonymise_users_after`
 * = N months (0: never), who is due (anonymised through AnonymiseUsersCommand, requestedBy
 * 'retention') and who is warned (once per due_on: the outbox's key). Reads the retention read
 * model, never the log. Already anonymised users are neither.
 */
@Injectable()
export class RetentionSweep {
  private readonly logger = new Logger('Retention');

  constructor(
    private readonly queries: RetentionQueries,
    private readonly accounts: UserAccounts,
    private readonly settings: SettingsViews,
    private readonly outbox: OutboxMailer,
    private readonly commands: CommandBus,
  ) {}

  /** Who a sweep on that date would anonymise, soonest first, ties by user id. Writes nothing. */
  async due(options: SweepOptions = {}): Promise<DueUser[]> {
    const due: DueUser[] = [];
    for (const org of await this.organisations(options.org)) due.push(...(await this.plan(org, options.asOf)).due);
    return due.sort((a, b) => (a.due_on < b.due_on ? -1 : a.due_on > b.due_on ? 1 : a.user_id - b.user_id));
  }

  /** The sweep: warnings first (those not sent for that due_on), then the anonymisations. */
  async sweep(options: SweepOptions = {}): Promise<SweepResult> {
    const warned: number[] = [];
    const anonymised: number[] = [];
    for (const org of await this.organisations(options.org)) {
      const { warn, due } = await this.plan(org, options.asOf);
      const sent: number[] = [];
      for (const w of warn) {
        const message = warningMail({ to: w.email, userName: w.name, organisationName: org.name, dueOn: w.dueOn });
        if ((await this.outbox.sendOnce(warningMailKey(w.userId, w.dueOn), message)) === 'sent') sent.push(w.userId);
      }
      const done =
        due.length === 0
          ? []
          : await this.commands.execute(
              new AnonymiseUsersCommand({
                userIds: due.map((d) => d.user_id),
                requestedBy: 'retention',
                actor: systemActor('retention'),
              }),
            );
      warned.push(...sent);
      anonymised.push(...done.map((d) => d.id));
      // Ids only: logs never hold personal data (docs/privacy.md).
      if (sent.length || done.length)
        this.logger.log(
          { organisation_id: org.id, warned: sent, anonymised: done.map((d) => d.id) },
          'retention sweep',
        );
    }
    return { warned: warned.sort((a, b) => a - b), anonymised: anonymised.sort((a, b) => a - b) };
  }

  private async organisations(slug?: string): Promise<OrganisationSummary[]> {
    const found = await this.accounts.organisations(slug);
    if (slug !== undefined && found.length === 0) throw new UnknownOrganisation(slug);
    return found;
  }

  private async plan(org: OrganisationSummary, asOf?: string): Promise<Planned> {
    const tenant = { organisationId: org.id };
    const months = retentionMonths(
      (await this.settings.values(org.id, [RETENTION_SETTING], { fresh: true }))[RETENTION_SETTING],
    );
    if (months === 0) return { warn: [], due: [] };
    const date = asOf ?? todayIn(org.timezone);
    const steps = (await this.queries.activities(tenant))
      .map((a) => ({ userId: a.userId, step: retentionStep(a, date, org.timezone, months) }))
      .filter((s) => s.step.kind === 'warn' || s.step.kind === 'anonymise');
    const accounts = await this.accounts.of(
      tenant,
      steps.map((s) => s.userId),
    );
    const warn: Planned['warn'] = [];
    const due: DueUser[] = [];
    for (const { userId, step } of steps) {
      const account = accounts.get(userId);
      if (!account || account.anonymised || (step.kind !== 'warn' && step.kind !== 'anonymise')) continue;
      if (step.kind === 'warn')
        warn.push({ userId, dueOn: step.dueOn, email: account.email, name: account.displayName });
      else
        due.push({
          organisation: org.slug,
          user_id: userId,
          email: account.email,
          last_activity: step.lastActivity,
          due_on: step.dueOn,
        });
    }
    return { warn, due };
  }
}

import { Processor } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import { type Cause, CausedJobProcessor, type CauseRef } from '#app/event-store';
import { UrlSigner } from '#app/files';
import { OutboxMailer, oneLine, toCsv } from '#app/platform';
import { ClaimQueries } from '../claim/claim.queries.js';
import { RecordSubmissionMailedCommand } from '../claim/record-submission-mailed.command.js';
import { ExpenseQueries } from '../expense/expense.queries.js';
import { CLAIM_CSV_COLUMNS } from '../claim/claim-csv.js';
import { EXPENSES_MAIL, type SubmissionJob } from './submission-mail.reactor.js';

/** Links in the finance mail stay good for 30 days: the mail is read later than a page is. */
const LINK_TTL_SECONDS = 30 * 24 * 3600;

/**
 * Mails finance a submitted claim (a summary, the expenses as CSV, and links to the receipts), then
 * records that it did: ClaimSubmissionMailed, as the system ("finance mail"), caused by the
 * ClaimSubmitted. A repeated job sends nothing twice (the outbox key) and records nothing twice
 * (the decision and the event id derived from the cause). Reads are for the claim's organisation.
 */
@Processor(EXPENSES_MAIL)
export class SubmissionMailProcessor extends CausedJobProcessor<SubmissionJob> {
  protected readonly reason = 'finance mail';

  constructor(
    private readonly claims: ClaimQueries,
    private readonly expenses: ExpenseQueries,
    private readonly signer: UrlSigner,
    private readonly mailer: OutboxMailer,
    commands: CommandBus,
  ) {
    super(commands);
  }

  protected async react({ id, organisationId, financeEmail }: SubmissionJob, cause: Cause): Promise<void> {
    const lines = await this.claims.rowsForSystem(organisationId, id);
    const first = lines[0] ?? {};
    const links = await this.receiptLinks(
      organisationId,
      lines.map((r) => Number(r.expense_id)),
    );
    const [claimant, authoriser] = [first.claimant, first.authoriser].map((n) => oneLine(String(n ?? '')));
    const text = [
      `Claim ${id} has been submitted.`,
      '',
      `Claimant: ${claimant}`,
      `Authorised by: ${authoriser}`,
      `Approved at: ${first.approved_at ?? ''}`,
      `Submitted at: ${first.submitted_at ?? ''}`,
      `Amount: ${Number(first.claim_amount ?? 0).toFixed(2)}`,
      `Expenses: ${lines.length} (attached as CSV)`,
      ...(links.length ? ['', 'Receipts (links valid for 30 days):', ...links] : []),
      '',
    ].join('\n');
    await this.mailer.sendOnce(`claim-submitted-${cause.event.eventId}`, {
      to: financeEmail,
      subject: `Expense claim ${id} submitted: ${claimant}, ${Number(first.claim_amount ?? 0).toFixed(2)}`,
      text,
      attachments: [{ filename: `claim-${id}.csv`, content: toCsv(CLAIM_CSV_COLUMNS, lines), contentType: 'text/csv' }],
    });
    await this.issue(
      new RecordSubmissionMailedCommand(cause, id, organisationId, financeEmail, new Date().toISOString()),
    );
  }

  /** Jobs enqueued before they carried a cause: the event's id, and the organisation it belongs to. */
  protected override causeOf(data: SubmissionJob & { eventId?: string }): CauseRef {
    return data.cause ?? { eventId: data.eventId!, metadata: { organisationId: data.organisationId } };
  }

  private async receiptLinks(organisationId: number, expenseIds: number[]): Promise<string[]> {
    const attached = await this.expenses.attachedFiles({ organisationId }, expenseIds);
    return [...attached].flatMap(([expenseId, files]) =>
      files.map(
        (file) =>
          `Expense ${expenseId}, ${file.originalName}: ${this.signer.url(file.id, 'original', Date.now(), LINK_TTL_SECONDS)}`,
      ),
    );
  }
}

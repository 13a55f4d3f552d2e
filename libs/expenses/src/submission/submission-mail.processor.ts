import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { FileRecords, UrlSigner } from '#app/files';
import type { Caller } from '#app/identity';
import { OutboxMailer } from '#app/platform';
import { ClaimQueries } from '../claim/claim.queries.js';
import { CLAIM_CSV_COLUMNS, toCsv } from '../http/csv.js';
import { EXPENSES_MAIL, type SubmissionJob } from './submission-mail.reactor.js';

/** Links in the finance mail stay good for 30 days: the mail is read later than a page is. */
const LINK_TTL_SECONDS = 30 * 24 * 3600;

/** Mails finance a submitted claim: a summary, the expenses as CSV, and links to the receipts. */
@Processor(EXPENSES_MAIL)
export class SubmissionMailProcessor extends WorkerHost {
  constructor(
    private readonly claims: ClaimQueries,
    private readonly files: FileRecords,
    private readonly signer: UrlSigner,
    private readonly mailer: OutboxMailer,
    private readonly dataSource: DataSource,
  ) {
    super();
  }

  async process(job: Job<SubmissionJob>): Promise<void> {
    const { id, organisationId, financeEmail, eventId } = job.data;
    const system: Caller = { userId: 0, organisationId, permissions: new Set(), sessionId: '', jti: '' };
    const [owner] = await this.dataSource.query(`SELECT user_id FROM claims WHERE id = $1 AND organisation_id = $2`, [id, organisationId]);
    const rows = await this.claims.rows(system, [Number(owner.user_id)], {}, { sort: 'created_at', direction: 'asc' });
    const lines = rows.filter((r) => Number(r.claim_id) === id);
    const first = lines[0] ?? {};
    const links = await this.receiptLinks(system, lines.map((r) => Number(r.expense_id)));
    const text = [
      `Claim ${id} has been submitted.`,
      '',
      `Claimant: ${first.claimant ?? ''}`,
      `Authorised by: ${first.authoriser ?? ''}`,
      `Approved at: ${first.approved_at ?? ''}`,
      `Submitted at: ${first.submitted_at ?? ''}`,
      `Amount: ${Number(first.claim_amount ?? 0).toFixed(2)}`,
      `Expenses: ${lines.length} (attached as CSV)`,
      ...(links.length ? ['', 'Receipts (links valid for 30 days):', ...links] : []),
      '',
    ].join('\n');
    await this.mailer.sendOnce(`claim-submitted-${eventId}`, {
      to: financeEmail,
      subject: `Expense claim ${id} submitted: ${first.claimant ?? ''}, ${Number(first.claim_amount ?? 0).toFixed(2)}`,
      text,
      attachments: [{ filename: `claim-${id}.csv`, content: toCsv(CLAIM_CSV_COLUMNS, lines), contentType: 'text/csv' }],
    });
  }

  private async receiptLinks(caller: Caller, expenseIds: number[]): Promise<string[]> {
    if (expenseIds.length === 0) return [];
    const rows: { expense_id: string; file_id: string }[] = await this.dataSource.query(
      `SELECT expense_id, file_id FROM expense_attachments WHERE organisation_id = $1 AND expense_id = ANY($2::bigint[]) ORDER BY expense_id, file_id`,
      [caller.organisationId, expenseIds],
    );
    const links: string[] = [];
    for (const r of rows) {
      const file = await this.files.find(caller, Number(r.file_id));
      if (file) links.push(`Expense ${r.expense_id}, ${file.originalName}: ${this.signer.url(file.id, 'original', Date.now(), LINK_TTL_SECONDS)}`);
    }
    return links;
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Caller, Hierarchy } from '#app/identity';
import { tenantScope, tenantSql } from '#app/platform';
import type { FileRecord } from '../file-records.js';

/**
 * Who may read a file of their organisation (GET /api/files/{id}): its uploader; whoever may read
 * a record it is attached to; every member, for an organisation image.
 *
 * Why a projection of references (file_references, fed by the expenses' and the organisation's
 * events) and not a port that expenses and organisation implement: both of them import files, so
 * a port would need each to register a policy with files and the rule would be spread over three
 * contexts; here it is one query and one hierarchy check in one place, rebuilt by replay like any
 * projection, and files still reads neither context's tables.
 */
@Injectable()
export class FileReadRule {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hierarchy: Hierarchy,
  ) {}

  /** `file` is already known to be of the caller's organisation. */
  async mayRead(caller: Caller, file: FileRecord): Promise<boolean> {
    if (file.ownerId === caller.userId) return true;
    const q = tenantSql(
      caller,
    )`SELECT DISTINCT referrer FROM file_references WHERE ${tenantScope()} AND file_id = ${file.id}`;
    const rows: { referrer: string }[] = await this.dataSource.query(q.text, q.values);
    const referrers = new Set(rows.map((r) => r.referrer));
    if (referrers.has('organisation')) return true;
    // An expense is read by its owner and by those who approve claims for the owner (libs/expenses:
    // ExpensesPolicy.access). Only the uploader may attach a file, and only to their own
    // expense (AttachFileHandler), so the expense's owner is the file's.
    if (referrers.has('expense')) return this.hierarchy.canManage(caller, file.ownerId, 'approve-claims');
    return false;
  }
}

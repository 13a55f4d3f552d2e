import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { AsReconciler, EventStore, type ReconcileReason, type Reconciles, systemActor } from '#app/event-store';
import { fileStream } from '../files.events.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { FILE_DELETION, FILE_DELETION_SWEEP, type FileDeletionData } from './file-deletion.reactor.js';

/** Rows taken per statement while draining. */
const PAGE = 100;

/**
 * The owed deletions of file objects (file_objects rows marked deletion_owed_since; docs/privacy.md
 * #what-is-purged-and-file-deletion): each row's objects are removed from the storage (the disk or
 * the bucket; an absent key is no error), then files.FileObjectsDeleted removes the row. A crash between the two leaves the row,
 * and the next drain removes the same keys again. Two workers draining at once remove nothing twice
 * that matters. Logs hold counts and file ids only.
 */
@Injectable()
export class FileDeletions {
  private readonly logger = new Logger('FileDeletions');

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  /** Deletes what is owed (of one user, or all of it): answers how many files' objects went. */
  async drain(of?: FileDeletionData): Promise<number> {
    let deleted = 0;
    let after = 0;
    for (;;) {
      const rows: { file_id: string; organisation_id: string; storage_keys: string[] }[] = await this.dataSource.query(
        `SELECT file_id, organisation_id, storage_keys FROM file_objects
          WHERE deletion_owed_since IS NOT NULL AND file_id > $1
            AND ($2::bigint IS NULL OR (organisation_id = $2 AND owner_id = $3))
          ORDER BY file_id LIMIT ${PAGE}`,
        [after, of?.organisationId ?? null, of?.userId ?? null],
      );
      for (const row of rows) {
        for (const key of row.storage_keys) await this.storage.remove(key);
        // The row goes with the event (the projection's), so a replay owes nothing deleted already.
        const id = Number(row.file_id);
        const organisationId = Number(row.organisation_id);
        await this.store.handle(
          fileStream(id),
          () => null,
          () => [{ type: 'files.FileObjectsDeleted', data: { id, organisationId } }],
          { expect: 'any', metadata: { organisationId, actor: systemActor('file deletion') } },
        );
        deleted++;
      }
      if (rows.length < PAGE) break;
      after = Number(rows.at(-1)!.file_id);
    }
    if (deleted > 0) this.logger.log({ files: deleted, ...(of && { user_id: of.userId }) }, 'file objects deleted');
    return deleted;
  }

  /** How many files' objects are still owed (the tests; an operator's look). */
  async owed(): Promise<number> {
    const [row]: { n: number }[] = await this.dataSource.query(
      `SELECT count(*)::int AS n FROM file_objects WHERE deletion_owed_since IS NOT NULL`,
    );
    return row!.n;
  }
}

/** The reactor's job: the anonymised user's owed objects, at once. */
@Processor(FILE_DELETION)
export class FileDeletionProcessor extends WorkerHost {
  constructor(private readonly deletions: FileDeletions) {
    super();
  }

  async process(job: Job<FileDeletionData>): Promise<number> {
    return this.deletions.drain({ organisationId: job.data.organisationId, userId: job.data.userId });
  }
}

const SWEEP = 'sweep';
export const FILE_DELETION_SCHEDULER = 'files-deletion-sweep';
/** Every 30 s: a deletion whose job the queue lost still happens within a minute. */
export const FILE_DELETION_SWEEP_EVERY_MS = 30_000;
const SWEEP_OPTIONS = { removeOnComplete: { age: 3600 }, removeOnFail: { age: 7 * 24 * 3600 } } as const;

/** The periodic sweep: everything file_objects owes, whoever it belongs to. */
@Processor(FILE_DELETION_SWEEP)
export class FileDeletionSweepProcessor extends WorkerHost {
  constructor(private readonly deletions: FileDeletions) {
    super();
  }

  async process(): Promise<number> {
    return this.deletions.drain();
  }
}

/**
 * Registers the sweep when the worker starts and on each full reconciliation (an upsert:
 * idempotent across restarts and workers; a Redis that came back empty has it again), and after
 * such a loss runs one at once.
 */
@AsReconciler()
@Injectable()
export class FileDeletionScheduler implements OnApplicationBootstrap, Reconciles {
  constructor(@InjectQueue(FILE_DELETION_SWEEP) private readonly queue: Queue) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.ensure();
  }

  async reconcile(reason: ReconcileReason): Promise<void> {
    await this.ensure();
    if (reason === 'lost')
      await this.queue.add(SWEEP, {}, { ...SWEEP_OPTIONS, jobId: `files-deletion-catch-up-${Date.now()}` });
  }

  private async ensure(): Promise<void> {
    await this.queue.upsertJobScheduler(
      FILE_DELETION_SCHEDULER,
      { every: FILE_DELETION_SWEEP_EVERY_MS },
      { name: SWEEP, data: {}, opts: SWEEP_OPTIONS },
    );
  }
}

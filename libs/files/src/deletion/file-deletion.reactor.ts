import { Injectable } from '@nestjs/common';
import { AsReactor, defineReactor } from '#app/event-store';
import type { UserAnonymised } from './user-anonymised.js';

/**
 * Two queues of the file deletions' own: FILE_DELETION holds the reactor's jobs (one per
 * anonymised user, at once), FILE_DELETION_SWEEP the periodic sweep's delayed job (as the cover
 * alerts keep theirs apart: on BullMQ's PostgreSQL backend a worker sleeps until its queue's next
 * delayed job).
 */
export const FILE_DELETION = 'files-deletion';
export const FILE_DELETION_SWEEP = 'files-deletion-sweep';
export const DELETE_OWED = 'delete-owed';

/** A deletion job: whose owed objects to delete (ids only). */
export interface FileDeletionData {
  readonly organisationId: number;
  readonly userId: number;
}

/**
 * An anonymised user's file objects are deleted by the worker at once (docs/privacy.md, effect 6).
 * The job only hurries what file_objects already owes: the rows were marked in the anonymising
 * transaction, and the sweep deletes whatever a lost job left.
 */
@AsReactor()
@Injectable()
export class FileDeletionReactor extends defineReactor<UserAnonymised>({
  name: 'files.deletion',
  queue: FILE_DELETION,
  on: {
    'identity.UserAnonymised': ({ data }) => ({
      name: DELETE_OWED,
      data: { organisationId: data.organisationId, userId: data.userId } satisfies FileDeletionData,
    }),
  },
}) {}

import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import {
  FileDeletionProcessor,
  FileDeletions,
  FileDeletionScheduler,
  FileDeletionSweepProcessor,
} from './deletion/file-deletion.processor.js';
import { FILE_DELETION, FILE_DELETION_SWEEP } from './deletion/file-deletion.reactor.js';
import { FilesModule } from './files.module.js';

/** The context's queues, for the operator's tools (queues:status, the dashboard). */
export const FILES_QUEUES: readonly string[] = [FILE_DELETION, FILE_DELETION_SWEEP];

/** The deletion of anonymised users' file objects (the reactor: FilesModule). */
@Module({
  imports: [FilesModule, BullModule.registerQueue({ name: FILE_DELETION }, { name: FILE_DELETION_SWEEP })],
  providers: [FileDeletions, FileDeletionProcessor, FileDeletionSweepProcessor, FileDeletionScheduler],
  exports: [FileDeletions],
})
export class FilesWorkerModule {}

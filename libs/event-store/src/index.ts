export * from './event.types.js';
export * from './actor.js';
export * from './define-projection.js';
export { ConcurrencyError } from './errors.js';
export { EventStore } from './event-store.js';
export { EventUpcasters, type Upcast } from './upcasters.js';
export { AsProjection, op, type Projection, type ProjectionOp, type Row } from './projection.js';
export { ProjectionRegistry } from './projection-registry.js';
export { ProjectionReplayer, type ReplayProgress, type ReplayResult } from './replay.js';
export { AsReactor, type Reactor, type ReactorJob } from './reactor.js';
export {
  Cause,
  CausedCommand,
  causedJob,
  CausedJobProcessor,
  type CausedJob,
  type CauseRef,
} from './caused-command.js';
export { ReactorRegistry } from './reactor-registry.js';
export { ReactorRunner } from './reactor-runner.js';
export { OwedJobs } from './owed-jobs.js';
export { LogWalk } from './log-walk.js';
export { AsReconciler, Reconciler, type ReconcileReason, type Reconciles } from './reconciler.js';
export { Checkpoints, type CheckpointStatus } from './checkpoints.js';
export { EventStoreModule } from './event-store.module.js';
export { ReactorRunnerModule } from './reactor-runner.module.js';
export { LOCKS } from './locks.js';
export {
  defineHistory,
  type History,
  type HistoryChanges,
  type HistoryEntry,
  type HistoryFormats,
  type UserResolver,
  userRef,
} from './history/history.js';
export { HistoryReader } from './history/history-reader.js';
export { PersonalDataKeys } from './personal-data/personal-data-keys.js';
export { personalData, type PersonalDataDeclaration } from './personal-data/registry.js';

export { PrivacyModule } from './privacy.module.js';
export { PRIVACY_QUEUES, PrivacyWorkerModule } from './privacy-worker.module.js';
export {
  AnonymiseUsersCommand,
  type AnonymiseRequester,
  type AnonymiseUsers,
} from './anonymise/anonymise-users.command.js';
export { type DueUser, RetentionSweep, type SweepOptions, type SweepResult } from './retention/retention-sweep.js';

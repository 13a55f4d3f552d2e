export { PrivacyModule } from './privacy.module.js';
export { PrivacyHttpModule } from './privacy-http.module.js';
export { MANAGE_DATA_PROTECTION, type PersonalData, PersonalDataExport } from './export/personal-data-export.js';
export { PRIVACY_QUEUES, PrivacyWorkerModule } from './privacy-worker.module.js';
export {
  type AnonymisedUser,
  AnonymiseUsersCommand,
  type AnonymiseUsersRequest,
} from './anonymise/anonymise-users.command.js';
export { decideAnonymise } from './anonymise/anonymise.js';
export { type DueUser, RetentionSweep, type SweepOptions, type SweepResult } from './retention/retention-sweep.js';

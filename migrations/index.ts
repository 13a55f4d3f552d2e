import { EventStore1763700000000 } from './1763700000000-event-store.js';
import { RateLimits1763700000100 } from './1763700000100-rate-limits.js';
import { Identity1763700001000 } from './1763700001000-identity.js';
import { Files1763700002000 } from './1763700002000-files.js';
import { OrganisationSettings1763700003000 } from './1763700003000-organisation-settings.js';
import { Expenses1763700004000 } from './1763700004000-expenses.js';
import { MailDeliveries1763700004100 } from './1763700004100-mail-deliveries.js';
import { ChangeNotifications1763700005000 } from './1763700005000-change-notifications.js';
import { DropStreams1763700006000 } from './1763700006000-drop-streams.js';
import { FileReferences1763700007200 } from './1763700007200-file-references.js';
import { Rotas1763700009000 } from './1763700009000-rotas.js';
import { Shifts1763700010000 } from './1763700010000-shifts.js';
import { TeamFields1763700009100 } from './1763700009100-team-fields.js';
import { CalendarFeeds1763700012000 } from './1763700012000-calendar-feeds.js';
import { Webhooks1763700022000 } from './1763700022000-webhooks.js';
import { OwedJobs1763700013500 } from './1763700013500-owed-jobs.js';
import { MailAttempts1763700023500 } from './1763700023500-mail-attempts.js';
import { ShiftAttendance1763700024000 } from './1763700024000-shift-attendance.js';
import { VolunteerHours1763700024500 } from './1763700024500-volunteer-hours.js';
import { CalendarUidDomain1763700025000 } from './1763700025000-calendar-uid-domain.js';
import { FileObjects1763700025500 } from './1763700025500-file-objects.js';
import { ShiftCancelledAt1763700026000 } from './1763700026000-shift-cancelled-at.js';
import { RateLimitHashes1763700026100 } from './1763700026100-rate-limit-hashes.js';
import { WebhookDeliveryUsers1763700026200 } from './1763700026200-webhook-delivery-users.js';
import { UserAnonymisation1763700026500 } from './1763700026500-user-anonymisation.js';
import { PersonalDataKeys1763700027000 } from './1763700027000-personal-data-keys.js';
import { SealPersonalData1763700027100 } from './1763700027100-seal-personal-data.js';
import { Retention1763700027500 } from './1763700027500-retention.js';
import { StandIns1763700030010 } from './1763700030010-stand-ins.js';
import { ShiftSwaps1763700030020 } from './1763700030020-shift-swaps.js';
import { RotaIdBlocks1763700030090 } from './1763700030090-rota-id-blocks.js';

/** Every migration in order; each app hands this list to the database module. */
export const migrations = [
  EventStore1763700000000,
  RateLimits1763700000100,
  Identity1763700001000,
  Files1763700002000,
  OrganisationSettings1763700003000,
  Expenses1763700004000,
  MailDeliveries1763700004100,
  ChangeNotifications1763700005000,
  DropStreams1763700006000,
  FileReferences1763700007200,
  Rotas1763700009000,
  TeamFields1763700009100,
  Shifts1763700010000,
  CalendarFeeds1763700012000,
  OwedJobs1763700013500,
  Webhooks1763700022000,
  MailAttempts1763700023500,
  ShiftAttendance1763700024000,
  VolunteerHours1763700024500,
  CalendarUidDomain1763700025000,
  FileObjects1763700025500,
  ShiftCancelledAt1763700026000,
  RateLimitHashes1763700026100,
  WebhookDeliveryUsers1763700026200,
  UserAnonymisation1763700026500,
  PersonalDataKeys1763700027000,
  SealPersonalData1763700027100,
  Retention1763700027500,
  StandIns1763700030010,
  ShiftSwaps1763700030020,
  RotaIdBlocks1763700030090,
];

export { APP_CONFIG, type AppConfig } from './config/app-config.js';
export { ConfigError, loadConfig, loadConfigOrExit } from './config/load-config.js';
export { ConfigModule } from './config/config.module.js';
export { DATABASE_ENDPOINT, type DatabaseEndpoint } from './database/database-endpoint.js';
export { DatabaseModule } from './database/database.module.js';
export { PreparedStatements } from './database/prepared-statements.js';
export { ChangeFeed, CHANGES_CHANNEL, type Change } from './database/change-feed.js';
export { ReadCache, type Watch } from './database/read-cache.js';
export { sql, Sql, tenantScope, tenantSql, type Tenant, type TenantStatement } from './database/tenant-sql.js';
export { startEmbeddedPostgres, type EmbeddedPostgres } from './database/embedded-postgres.js';
export { runMigrationsLocked } from './database/run-migrations.js';
export { migrationConfig } from './database/migration-config.js';
export {
  STARTUP_PROGRESS,
  StartupProgressModule,
  progressInLog,
  progressOnStderr,
  type StartupProgress,
} from './database/startup-progress.js';
export { QueueModule } from './queue/queue.module.js';
export { ShutdownDeadlineModule } from './lifecycle/shutdown-deadline.js';
export { QueueAdmin, type QueueCounts } from './queue/queue-admin.js';
export { QueueAdminModule } from './queue/queue-admin.module.js';
export { MetricsModule } from './metrics/metrics.module.js';
export { Metrics, type GaugeSample } from './metrics/metrics.js';
export { QueueMetrics } from './metrics/queue-metrics.js';
export { HealthModule } from './health/health.module.js';
export { isDependencyError } from './health/dependency-errors.js';
export { DependencyMonitor, type ProcessRole, StorageDependency } from './health/dependency-monitor.js';
export { LoggingModule } from './logging/logging.module.js';
export { exitOnStartFailure, StartFailureLogger, StartRefusal } from './logging/start-logs.js';
export * from './errors/domain-error.js';
export { errorBody, type ErrorBody } from './http/error-body.js';
export { mapError } from './http/error-mapping.js';
export { replyWith, replyWithError } from './http/error-reply.js';
export { checkAccept, preferredType } from './http/accept.js';
export { toCsv } from './http/csv.js';
export { HttpExceptionFilter } from './http/http-exception.filter.js';
export { paginate, offsetOf, PER_PAGE, type Paginated, type PageRequest } from './http/pagination.js';
export {
  parseListQuery,
  parseBooleanQuery,
  parseIdList,
  type ListQuery,
  type ListQuerySpec,
  type RawQuery,
} from './http/list-query.js';
export { PageQuery, type QueryDtoClass } from './http/query-dto.js';
export { validationPipe, fieldErrors, BODY_REQUIRED } from './http/validation.js';
export { isStorableText, unstorableTextIn, unstorableTextMessage } from './validation/storable-text.js';
export {
  isCalendarDate,
  IsCalendarDate,
  calendarDateMessage,
  isDateTimeWithOffset,
  IsDateTimeWithOffset,
} from './validation/calendar-date.js';
export { IsOptionalNotNull, notNullMessage } from './validation/not-null.js';
export {
  addCalendarMonths,
  instantToWallClock,
  isValidZone,
  FIRST_CALENDAR_DATE,
  LAST_CALENDAR_DATE,
  monthsBefore,
  NonexistentWallClockError,
  parseCalendarDate,
  todayIn,
  wallClockToInstant,
  withinCalendar,
  type CalendarDateParts,
  type WallClock,
  type WallClockOptions,
} from './time/zoned-time.js';
export { IsDecimal, isDecimal } from './validation/decimal.js';
export { isEmailAddress } from './validation/email.js';
export { IdRef, isIdRef, isPositiveId, IsPositiveId, IsReference } from './validation/id-ref.js';
export { createHttpApp, listen } from './http/http-app.js';
export { exitIfPortTaken } from './http/port-check.js';
export { groupBy } from './collections/group-by.js';
export { BodyLimit, DEFAULT_BODY_LIMIT } from './http/json-body.js';
export { SecretBox } from './security/secret-box.js';
export { KeyedHash } from './security/keyed-hash.js';
export { RateLimiter, RateLimitedError } from './security/rate-limiter.js';
export type { MailAttachment, MailMessage } from './messaging/mail-message.js';
export { Mailer } from './messaging/mailer.js';
export { oneLine } from './messaging/one-line.js';
export { OutboxMailer, OutboxModule } from './messaging/outbox-mailer.js';
export { SmsSender } from './messaging/sms-sender.js';
export { MessagingModule } from './messaging/messaging.module.js';
export { SecurityModule } from './security/security.module.js';
export { Public, PUBLIC_ROUTE } from './http/public.decorator.js';
export { pathId } from './http/path-id.js';
export {
  ApiBooleanQuery,
  ApiData,
  ApiDocs,
  ApiErrors,
  ApiIdListQuery,
  ApiIdParam,
  ApiIncludeQuery,
  ApiListQuery,
  ApiPaginated,
  dataSchema,
  ERROR_STATUSES,
  ErrorBodyDto,
  paginatedSchema,
  PaginationDto,
  PaginationLinksDto,
  PaginationMetaDto,
  type EnvelopeOptions,
  type ErrorStatus,
} from './http/openapi.js';
export { testDecider, type Decider, type Decision, type ExpectedRefusal } from './testing/decider.js';

import { z } from 'zod';

// Every variable of docs/operations.md's "Configuration" table, validated once at boot. Numbers arrive as
// strings from the environment, so they are coerced; an empty string counts as unset.
const blankAsUnset = (v: unknown) => (v === '' ? undefined : v);
const optionalUrl = (protocols: string[]) =>
  z.preprocess(
    blankAsUnset,
    z
      .string()
      .url()
      .refine((u) => !URL.canParse(u) || protocols.includes(new URL(u).protocol), {
        message: `must use ${protocols.join(' or ')}`,
      })
      .optional(),
  );
// `true`/`false`/`1`/`0`; unset stays undefined so the caller can pick a default.
const optionalBoolean = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? blankAsUnset(v.trim().toLowerCase()) : v),
    z
      .enum(['true', 'false', '1', '0'], { message: 'must be true, false, 1 or 0' })
      .transform((v) => v === 'true' || v === '1')
      .optional(),
  );
/**
 * Comma-separated browser origins: each http(s), scheme and host (and port) only; no path, query,
 * credentials or wildcard. Normalised as browsers send them in `Origin` (lower-case host, no
 * default port, no trailing slash). Blank items are skipped; none at all means unset.
 */
const origins = () =>
  z.preprocess(
    blankAsUnset,
    z
      .string()
      .transform((value, ctx) => {
        const list: string[] = [];
        for (const item of value
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean)) {
          const url = URL.canParse(item) ? new URL(item) : undefined;
          if (
            !url ||
            !['http:', 'https:'].includes(url.protocol) ||
            url.username ||
            url.password ||
            url.pathname !== '/' ||
            url.search ||
            url.hash ||
            item.includes('*')
          ) {
            ctx.addIssue({
              code: 'custom',
              message: `"${item}" is not an http(s) origin such as https://app.example (no path)`,
              input: value,
            });
            continue;
          }
          if (!list.includes(url.origin)) list.push(url.origin);
        }
        return list;
      })
      .optional(),
  );
const seconds = (fallback: number) => z.preprocess(blankAsUnset, z.coerce.number().int().positive().default(fallback));

export const envSchema = z.object({
  NODE_ENV: z.preprocess(blankAsUnset, z.enum(['development', 'production', 'test']).default('development')),
  PORT: z.preprocess(blankAsUnset, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(blankAsUnset, z.string().min(1).default('127.0.0.1')),
  PUBLIC_URL: optionalUrl(['http:', 'https:']),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  DATA_DIR: z.preprocess(blankAsUnset, z.string().min(1).default('./.data')),
  JWT_SECRET: z.preprocess(blankAsUnset, z.string().min(32, 'must be at least 32 characters').optional()),
  JWT_TTL: seconds(3600),
  JWT_REFRESH_TTL: seconds(1_209_600),
  PRE_AUTH_TTL: seconds(600),
  // Seconds after a refresh during which presenting the refreshed JWT again (a double submit) is
  // refused with a 409 and revokes nothing; 0 turns the grace off (every reuse revokes the log-in).
  JWT_REFRESH_GRACE: z.preprocess(blankAsUnset, z.coerce.number().int().min(0).max(300).default(5)),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  MAIL_FROM: z.preprocess(blankAsUnset, z.string().email().default('no-reply@localhost')),
  SMS_WEBHOOK_URL: optionalUrl(['http:', 'https:']),
  UPLOAD_MAX_BYTES: z.preprocess(blankAsUnset, z.coerce.number().int().positive().default(10_485_760)),
  // Object storage (docs/adr/0010-object-storage.md): with S3_BUCKET set, files live in the bucket, not under DATA_DIR.
  S3_BUCKET: z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 of a-z, 0-9, dot, hyphen)')
      .optional(),
  ),
  S3_ENDPOINT: optionalUrl(['http:', 'https:']),
  S3_REGION: z.preprocess(blankAsUnset, z.string().min(1).default('us-east-1')),
  // Unset: true when S3_ENDPOINT is set (MinIO and most other stores want bucket-in-path), false on AWS.
  S3_FORCE_PATH_STYLE: optionalBoolean(),
  // Both or neither; neither: the SDK's own credential chain (instance role, shared profile).
  AWS_ACCESS_KEY_ID: z.preprocess(blankAsUnset, z.string().optional()),
  AWS_SECRET_ACCESS_KEY: z.preprocess(blankAsUnset, z.string().optional()),
  // docs/metrics.md: GET /metrics answers only to this bearer token; unset, the route is a 404.
  METRICS_TOKEN: z.preprocess(blankAsUnset, z.string().min(1).optional()),
  // A worker process serves /metrics on this port (the api and standalone processes on PORT).
  METRICS_PORT: z.preprocess(blankAsUnset, z.coerce.number().int().min(1).max(65535).optional()),
  // The queue dashboard's HTTP Basic password (user `admin`); unset, /admin/queues is a 404.
  ADMIN_PASSWORD: z.preprocess(blankAsUnset, z.string().min(1).optional()),
  LOG_LEVEL: z.preprocess(
    blankAsUnset,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  // Readable one-line records instead of JSON; unset: on when stdout is a terminal outside production.
  LOG_PRETTY: optionalBoolean(),
  CORS_ORIGINS: origins(),
  // Not in docs/operations.md's configuration table: isolates BullMQ keys when several deployments share one Redis
  // (and lets parallel test files share one server).
  QUEUE_PREFIX: z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/)
      .default('uvol'),
  ),
  // Encrypts secrets inside stored events (two-factor codes on their way to the mailer,
  // integration secrets). Unset: derived from JWT_SECRET; set it to rotate the two separately.
  SECRETS_KEY: z.preprocess(blankAsUnset, z.string().min(32, 'must be at least 32 characters').optional()),
  // Log-in attempts allowed per minute for one account and for one client address (429 beyond).
  AUTH_RATE_LIMIT: z.preprocess(blankAsUnset, z.coerce.number().int().min(1).max(10_000).default(5)),
  AUTH_RATE_LIMIT_PER_ADDRESS: z.preprocess(blankAsUnset, z.coerce.number().int().min(1).max(100_000).default(30)),
  // How often reactors poll the event log when idle, in milliseconds.
  REACTOR_POLL_MS: z.preprocess(blankAsUnset, z.coerce.number().int().min(10).max(60_000).default(250)),
  // How often the worker's reconciler offers again the work PostgreSQL says is owed (docs/adr/0009), in milliseconds.
  RECONCILE_MS: z.preprocess(blankAsUnset, z.coerce.number().int().min(100).max(3_600_000).default(15_000)),
  // Not in docs/operations.md's configuration table, for tests: how long an "hour" of shift_reminder_hours lasts, in
  // milliseconds (1000 makes the setting count seconds, so a reminder comes due within a test).
  REMINDER_HOUR_MS: z.preprocess(blankAsUnset, z.coerce.number().int().min(1_000).max(3_600_000).default(3_600_000)),
  // Webhook URLs may name loopback and private addresses (docs/webhooks.md#endpoints): for tests and closed networks.
  WEBHOOK_ALLOW_PRIVATE: optionalBoolean(),
  // Not in docs/operations.md's configuration table, for tests: how long a second of the webhook retry schedule lasts, in ms.
  WEBHOOK_RETRY_SECOND_MS: z.preprocess(blankAsUnset, z.coerce.number().int().min(1).max(1_000).default(1_000)),
});

export type Env = z.infer<typeof envSchema>;

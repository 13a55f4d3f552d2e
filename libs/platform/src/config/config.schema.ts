import { z } from 'zod';

// Every variable of operations.md, validated once at boot. Numbers arrive as strings from the
// environment, so they are coerced; an empty string counts as unset.
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
const seconds = (fallback: number) =>
  z.preprocess(blankAsUnset, z.coerce.number().int().positive().default(fallback));

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
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  MAIL_FROM: z.preprocess(blankAsUnset, z.string().email().default('no-reply@localhost')),
  SMS_WEBHOOK_URL: optionalUrl(['http:', 'https:']),
  UPLOAD_MAX_BYTES: z.preprocess(blankAsUnset, z.coerce.number().int().positive().default(10_485_760)),
  LOG_LEVEL: z.preprocess(
    blankAsUnset,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  // Not in operations.md's table: isolates BullMQ keys when several deployments share one Redis
  // (and lets parallel test files share one server).
  QUEUE_PREFIX: z.preprocess(blankAsUnset, z.string().regex(/^[A-Za-z0-9_-]+$/).default('uvol')),
  // Encrypts secrets inside stored events (two-factor codes on their way to the mailer,
  // integration secrets). Unset: derived from JWT_SECRET; set it to rotate the two separately.
  SECRETS_KEY: z.preprocess(blankAsUnset, z.string().min(32, 'must be at least 32 characters').optional()),
  // Log-in attempts allowed per minute for one account and for one client address (429 beyond).
  AUTH_RATE_LIMIT: z.preprocess(blankAsUnset, z.coerce.number().int().min(1).max(10_000).default(5)),
  AUTH_RATE_LIMIT_PER_ADDRESS: z.preprocess(blankAsUnset, z.coerce.number().int().min(1).max(100_000).default(30)),
  // How often reactors poll the event log when idle, in milliseconds.
  REACTOR_POLL_MS: z.preprocess(blankAsUnset, z.coerce.number().int().min(10).max(60_000).default(250)),
});

export type Env = z.infer<typeof envSchema>;

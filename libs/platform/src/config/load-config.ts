import { hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import type { AppConfig, S3Config } from './app-config.js';
import { envSchema, type Env } from './config.schema.js';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function describe(issues: z.core.$ZodIssue[]): string[] {
  return issues.map((i) => `${i.path.join('.') || '(environment)'}: ${i.message}`);
}

/**
 * Validates the environment once and returns the typed groups. Every bad variable is named in
 * one error, so an operator fixes them all in one go.
 */
export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  stdoutIsTerminal: boolean = process.stdout.isTTY === true,
): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) throw new ConfigError(describe(parsed.error.issues));
  const env = parsed.data;
  if (env.NODE_ENV === 'production' && !env.JWT_SECRET) {
    throw new ConfigError(['JWT_SECRET: required when NODE_ENV=production']);
  }
  const dataDir = resolve(env.DATA_DIR);
  const jwtSecret = env.JWT_SECRET ?? localJwtSecret(dataDir);
  return {
    env: env.NODE_ENV,
    http: { port: env.PORT, host: env.HOST, publicUrl: publicUrl(env) },
    database: { url: env.DATABASE_URL, embeddedDir: join(dataDir, 'pglite') },
    queue: {
      redisUrl: env.REDIS_URL,
      prefix: env.QUEUE_PREFIX,
      reactorPollMs: env.REACTOR_POLL_MS,
      reconcileMs: env.RECONCILE_MS,
    },
    dataDir,
    auth: {
      jwtSecret,
      jwtTtl: env.JWT_TTL,
      jwtRefreshTtl: env.JWT_REFRESH_TTL,
      jwtRefreshGrace: env.JWT_REFRESH_GRACE,
      preAuthTtl: env.PRE_AUTH_TTL,
      rateLimit: { perAccount: env.AUTH_RATE_LIMIT, perAddress: env.AUTH_RATE_LIMIT_PER_ADDRESS },
    },
    secretsKey: Buffer.from(hkdfSync('sha256', env.SECRETS_KEY ?? jwtSecret, 'uvol', 'event-secrets', 32)),
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, sinkDir: join(dataDir, 'mail') },
    sms: { webhookUrl: env.SMS_WEBHOOK_URL, sinkDir: join(dataDir, 'sms') },
    files: { uploadMaxBytes: env.UPLOAD_MAX_BYTES, dir: join(dataDir, 'files'), s3: s3Config(env) },
    log: { level: env.LOG_LEVEL, pretty: env.LOG_PRETTY ?? (stdoutIsTerminal && env.NODE_ENV !== 'production') },
    cors: { origins: env.CORS_ORIGINS ?? [] },
    admin: { password: env.ADMIN_PASSWORD },
    reminders: { hourMs: env.REMINDER_HOUR_MS },
    webhooks: { allowPrivate: env.WEBHOOK_ALLOW_PRIVATE ?? false, retrySecondMs: env.WEBHOOK_RETRY_SECOND_MS },
    metrics: { token: env.METRICS_TOKEN, port: env.METRICS_PORT },
  };
}

function s3Config(env: Env): S3Config | undefined {
  if (!env.S3_BUCKET) return undefined;
  const [keyId, secret] = [env.AWS_ACCESS_KEY_ID, env.AWS_SECRET_ACCESS_KEY];
  if (!keyId !== !secret) throw new ConfigError(['AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: set both or neither']);
  return {
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? env.S3_ENDPOINT !== undefined,
    credentials: keyId && secret ? { accessKeyId: keyId, secretAccessKey: secret } : undefined,
  };
}

function publicUrl(env: Env): string {
  const url = env.PUBLIC_URL ?? `http://127.0.0.1:${env.PORT}`;
  return url.replace(/\/+$/, '');
}

// Outside production a first run must work with no settings, so the signing key is generated
// once and kept beside the data; tokens then survive restarts.
function localJwtSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    // Another process (api beside worker) wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
}

/** For process entry points: a bad configuration ends the boot with the list of bad variables, not a stack trace. */
export function loadConfigOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}

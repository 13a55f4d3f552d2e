// The typed groups the rest of the code sees; nothing outside this folder reads process.env.
export interface AppConfig {
  readonly env: 'development' | 'production' | 'test';
  readonly http: { readonly port: number; readonly host: string; readonly publicUrl: string };
  /** `url` undefined means embedded mode: PGlite under `dataDir`. */
  readonly database: { readonly url: string | undefined; readonly embeddedDir: string };
  /** `url` undefined means BullMQ runs on its PostgreSQL backend in the application database. */
  readonly queue: {
    readonly redisUrl: string | undefined;
    readonly prefix: string;
    readonly reactorPollMs: number;
    /** RECONCILE_MS: how often the worker offers again what PostgreSQL says is owed. */
    readonly reconcileMs: number;
  };
  readonly dataDir: string;
  readonly auth: {
    readonly jwtSecret: string;
    readonly jwtTtl: number;
    readonly jwtRefreshTtl: number;
    /** Seconds after a refresh in which a repeat of it is refused (409) without revoking the log-in. */
    readonly jwtRefreshGrace: number;
    readonly preAuthTtl: number;
    /**
     * Attempts per minute on the log-in routes: `perAccount` for one account from one client
     * address (twenty times that per account from anywhere per 15 minutes), `perAddress` per route.
     */
    readonly rateLimit: { readonly perAccount: number; readonly perAddress: number };
  };
  /** 32-byte key for secrets stored inside events. */
  readonly secretsKey: Buffer;
  readonly mail: { readonly smtpUrl: string | undefined; readonly from: string; readonly sinkDir: string };
  readonly sms: { readonly webhookUrl: string | undefined; readonly sinkDir: string };
  /** `s3` set (S3_BUCKET): files and thumbnails live in that bucket instead of under `dir`. */
  readonly files: { readonly uploadMaxBytes: number; readonly dir: string; readonly s3: S3Config | undefined };
  /**
   * `pretty` writes one readable line per record instead of JSON (LOG_PRETTY). `destination`
   * replaces stdout; never set from the environment, tests use it to read the log.
   */
  readonly log: {
    readonly level: string;
    readonly pretty: boolean;
    readonly destination?: { write(line: string): unknown };
  };
  /** Origins allowed to call the API from a browser (CORS_ORIGINS); empty: CORS off. */
  readonly cors: { readonly origins: readonly string[] };
  /** Shift reminders: the length of an hour of `shift_reminder_hours` (REMINDER_HOUR_MS; shorter only in tests). */
  /** The queue dashboard at /admin/queues (HTTP Basic, user `admin`): ADMIN_PASSWORD; unset, the path is a 404. */
  readonly admin: { readonly password: string | undefined };
  readonly reminders: { readonly hourMs: number };
  /** Webhooks (docs/webhooks.md): private addresses allowed; the length of a second of the retry schedule (tests shorten it). */
  readonly webhooks: { readonly allowPrivate: boolean; readonly retrySecondMs: number };
  /** docs/metrics.md: `token` (METRICS_TOKEN) unset turns /metrics off; `port` (METRICS_PORT) is a worker's own. */
  readonly metrics: { readonly token: string | undefined; readonly port: number | undefined };
}

/** An S3-compatible bucket (docs/adr/0010-object-storage.md); no `credentials`: the SDK's own chain. */
export interface S3Config {
  readonly bucket: string;
  readonly endpoint: string | undefined;
  readonly region: string;
  readonly forcePathStyle: boolean;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | undefined;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

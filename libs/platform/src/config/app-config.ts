// The typed groups the rest of the code sees; nothing outside this folder reads process.env.
export interface AppConfig {
  readonly env: 'development' | 'production' | 'test';
  readonly http: { readonly port: number; readonly host: string; readonly publicUrl: string };
  /** `url` undefined means embedded mode: PGlite under `dataDir`. */
  readonly database: { readonly url: string | undefined; readonly embeddedDir: string };
  /** `url` undefined means BullMQ runs on its PostgreSQL backend in the application database. */
  readonly queue: { readonly redisUrl: string | undefined; readonly prefix: string; readonly reactorPollMs: number };
  readonly dataDir: string;
  readonly auth: {
    readonly jwtSecret: string;
    readonly jwtTtl: number;
    readonly jwtRefreshTtl: number;
    readonly preAuthTtl: number;
    /** Attempts per minute on the log-in routes, per account and per client address. */
    readonly rateLimit: { readonly perAccount: number; readonly perAddress: number };
  };
  /** 32-byte key for secrets stored inside events. */
  readonly secretsKey: Buffer;
  readonly mail: { readonly smtpUrl: string | undefined; readonly from: string; readonly sinkDir: string };
  readonly sms: { readonly webhookUrl: string | undefined; readonly sinkDir: string };
  readonly files: { readonly uploadMaxBytes: number; readonly dir: string };
  readonly log: { readonly level: string };
}

export const APP_CONFIG = Symbol('APP_CONFIG');

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from './load-config.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'uvol-config-'));

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.http).toEqual({ port: 3000, host: '127.0.0.1', publicUrl: 'http://127.0.0.1:3000' });
    expect(config.database.url).toBeUndefined();
    expect(config.queue.redisUrl).toBeUndefined();
    expect(config.auth).toMatchObject({ jwtTtl: 3600, jwtRefreshTtl: 1_209_600, jwtRefreshGrace: 5, preAuthTtl: 600 });
    expect(config.mail).toMatchObject({ smtpUrl: undefined, from: 'no-reply@localhost', sinkDir: join(dir, 'mail') });
    expect(config.files.uploadMaxBytes).toBe(10_485_760);
    expect(config.log.level).toBe('info');
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash from a given one', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), PORT: '8080' }).http.publicUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://vol.example/app/' }).http.publicUrl).toBe(
      'https://vol.example/app',
    );
  });

  it('names every bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        JWT_TTL: '-5',
        LOG_LEVEL: 'loud',
        REDIS_URL: 'not a url',
        JWT_REFRESH_GRACE: 'soon',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const names = (error as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(names.sort()).toEqual(['DATABASE_URL', 'JWT_REFRESH_GRACE', 'JWT_TTL', 'LOG_LEVEL', 'PORT', 'REDIS_URL']);
    expect((error as ConfigError).message).toMatch(/PORT/);
  });

  it('requires JWT_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() })).toThrow(/JWT_SECRET: required/);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) }).auth.jwtSecret).toBe('x'.repeat(32));
  });

  it('generates a signing key once outside production and keeps it in DATA_DIR', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).auth.jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).auth.jwtSecret).toBe(first);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8')).toBe(first);
  });

  it('takes JWT_REFRESH_GRACE in whole seconds, 0 to switch the grace off, and refuses a negative one', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), JWT_REFRESH_GRACE: '0' }).auth.jwtRefreshGrace).toBe(0);
    expect(loadConfig({ DATA_DIR: dataDir(), JWT_REFRESH_GRACE: '2' }).auth.jwtRefreshGrace).toBe(2);
    expect(() => loadConfig({ DATA_DIR: dataDir(), JWT_REFRESH_GRACE: '-1' })).toThrow(/JWT_REFRESH_GRACE/);
  });

  it('reads LOG_PRETTY as a boolean, by default pretty only on a terminal outside production', () => {
    const pretty = (env: Record<string, string>, terminal: boolean) =>
      loadConfig({ DATA_DIR: dataDir(), JWT_SECRET: 'x'.repeat(32), ...env }, terminal).log.pretty;
    expect(pretty({}, false)).toBe(false);
    expect(pretty({}, true)).toBe(true);
    expect(pretty({ NODE_ENV: 'production' }, true)).toBe(false);
    expect(pretty({ LOG_PRETTY: 'true' }, false)).toBe(true);
    expect(pretty({ LOG_PRETTY: '1', NODE_ENV: 'production' }, false)).toBe(true);
    expect(pretty({ LOG_PRETTY: 'false' }, true)).toBe(false);
    expect(pretty({ LOG_PRETTY: '0' }, true)).toBe(false);
    expect(pretty({ LOG_PRETTY: '' }, true)).toBe(true);
    for (const bad of ['yes', 'on', '2'])
      expect(() => loadConfig({ DATA_DIR: dataDir(), LOG_PRETTY: bad })).toThrow(
        /LOG_PRETTY: must be true, false, 1 or 0/,
      );
  });

  it('leaves CORS off without CORS_ORIGINS and reads the origins as browsers send them', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).cors.origins).toEqual([]);
    expect(loadConfig({ DATA_DIR: dataDir(), CORS_ORIGINS: ' , ' }).cors.origins).toEqual([]);
    expect(loadConfig({ DATA_DIR: dataDir(), CORS_ORIGINS: 'https://app.example' }).cors.origins).toEqual([
      'https://app.example',
    ]);
    expect(
      loadConfig({
        DATA_DIR: dataDir(),
        CORS_ORIGINS: 'https://App.Example/, http://localhost:5173 ,https://app.example:443,',
      }).cors.origins,
    ).toEqual(['https://app.example', 'http://localhost:5173']);
  });

  it('refuses a CORS origin that is not an http(s) origin without a path, naming it', () => {
    for (const bad of [
      'app.example',
      'ftp://app.example',
      'https://app.example/app',
      'https://app.example?x=1',
      'https://user:pw@app.example',
      '*',
      'https://*.example',
      'null',
    ]) {
      expect(() => loadConfig({ DATA_DIR: dataDir(), CORS_ORIGINS: `https://ok.example,${bad}` })).toThrow(
        new RegExp(`CORS_ORIGINS: "${bad.replace(/[.*?]/g, '\\$&')}" is not an http\\(s\\) origin`),
      );
    }
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: dataDir(), CORS_ORIGINS: 'https://a.example/x,https://b.example/y', LOG_PRETTY: 'maybe' });
    } catch (err) {
      error = err;
    }
    expect((error as ConfigError).problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'CORS_ORIGINS',
      'CORS_ORIGINS',
      'LOG_PRETTY',
    ]);
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: '', PORT: '' }).database.url).toBeUndefined();
  });

  it('keeps files on disk without S3_BUCKET; with it, defaults the region and path style by endpoint', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).files.s3).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dataDir(), S3_BUCKET: 'uvol-files' }).files.s3).toEqual({
      bucket: 'uvol-files',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
      credentials: undefined,
    });
    const minio = { DATA_DIR: dataDir(), S3_BUCKET: 'uvol', S3_ENDPOINT: 'http://minio:9000' };
    expect(loadConfig({ ...minio, AWS_ACCESS_KEY_ID: 'k', AWS_SECRET_ACCESS_KEY: 's' }).files.s3).toMatchObject({
      forcePathStyle: true,
      credentials: { accessKeyId: 'k', secretAccessKey: 's' },
    });
    expect(loadConfig({ ...minio, S3_FORCE_PATH_STYLE: 'false' }).files.s3?.forcePathStyle).toBe(false);
    expect(() => loadConfig({ ...minio, AWS_ACCESS_KEY_ID: 'k' })).toThrow(/set both or neither/);
    expect(() => loadConfig({ ...minio, S3_BUCKET: 'No_Such' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ ...minio, S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT/);
  });
});

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
    expect(config.auth).toMatchObject({ jwtTtl: 3600, jwtRefreshTtl: 1_209_600, preAuthTtl: 600 });
    expect(config.mail).toMatchObject({ smtpUrl: undefined, from: 'no-reply@localhost', sinkDir: join(dir, 'mail') });
    expect(config.files.uploadMaxBytes).toBe(10_485_760);
    expect(config.log.level).toBe('info');
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash from a given one', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), PORT: '8080' }).http.publicUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://vol.example/app/' }).http.publicUrl).toBe('https://vol.example/app');
  });

  it('names every bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', JWT_TTL: '-5', LOG_LEVEL: 'loud', REDIS_URL: 'not a url' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const names = (error as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(names.sort()).toEqual(['DATABASE_URL', 'JWT_TTL', 'LOG_LEVEL', 'PORT', 'REDIS_URL']);
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

  it('treats empty strings as unset', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: '', PORT: '' }).database.url).toBeUndefined();
  });
});

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { QueueAdmin, SecretBox } from '#app/platform';
import { eventually } from '../support/eventually.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone } from '../support/test-app.js';

/**
 * Issue 31: a job that failed left nothing in the log, so two-factor codes sealed by an API whose
 * SECRETS_KEY (or JWT_SECRET) the worker did not share failed in silence. Each failed attempt is
 * now one line with its error, and that error names the variables.
 */
describe('failed jobs in the log', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  const log: { level: number; context?: string; msg: string }[] = [];
  const jobLines = () => log.filter((r) => r.context === 'Jobs');

  beforeAll(async () => {
    // ADMIN_PASSWORD: the HTTP process then holds every queue (QueueAdmin), to add the jobs below.
    env = await testEnvironment({ LOG_LEVEL: 'info', ADMIN_PASSWORD: 'failed jobs dashboard' });
    const destination = { write: (line: string) => void log.push(JSON.parse(line) as (typeof log)[number]) };
    app = await bootStandalone({ ...env.config, log: { ...env.config.log, pretty: false, destination } });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it('a two-factor code sealed with another key: one error line naming SECRETS_KEY and JWT_SECRET', async () => {
    const otherKey = new SecretBox({ secretsKey: randomBytes(32) });
    const job = await app
      .get(QueueAdmin)
      .queue('identity-messages')
      .add(
        'send',
        {
          method: 'email',
          destination: 'ada@example.test',
          sealedKey: otherKey.seal('123456'),
          expiresAt: new Date(Date.now() + 600_000).toISOString(),
        },
        { attempts: 1 },
      );
    await eventually(() => jobLines().length > 0, 30_000);
    expect(jobLines()).toEqual([
      expect.objectContaining({
        level: 50,
        msg: expect.stringMatching(
          new RegExp(
            `^job identity-messages/${job.id} failed \\(attempt 1 of 1\\): a sealed secret does not open with this process's key: .*SECRETS_KEY.*JWT_SECRET`,
          ),
        ),
      }),
    ]);
  }, 60_000);

  it('an attempt that will be retried is a warning', async () => {
    const before = jobLines().length;
    await app
      .get(QueueAdmin)
      .queue('rotas-series-extension')
      .add('extend-series', { asOf: 'not a date' }, { attempts: 2, backoff: { type: 'fixed', delay: 100 } });
    await eventually(() => jobLines().length >= before + 2, 30_000);
    expect(
      jobLines()
        .slice(before, before + 2)
        .map((r) => [r.level, r.msg.replace(/\): .*/, ')')]),
    ).toEqual([
      [40, expect.stringMatching(/^job rotas-series-extension\/\S+ failed \(attempt 1 of 2, retried\)$/)],
      [50, expect.stringMatching(/^job rotas-series-extension\/\S+ failed \(attempt 2 of 2\)$/)],
    ]);
  }, 60_000);
});

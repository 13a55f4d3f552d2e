import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import request from 'supertest';
import { startMailCatcher } from '../support/mail-catcher.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { organisationFile, provision, userFile } from '../support/test-app.js';
import { bootApi } from '../support/test-http.js';
import { BUILT, type ServiceProcess, startProcess, stopProcess } from '../support/worker-process.js';

const servers = !!process.env.TEST_PG_ADMIN_URL && !!process.env.TEST_REDIS_URL;
const EMAIL = 'mailer@riverside.example';

/** An SMTP server that takes a message's data and never answers it: the sending job stays active. */
async function startBlackHole(): Promise<{ url: string; holding: Promise<void>; stop(): Promise<void> }> {
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream) {
      stream.resume();
      held();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    holding,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Issue 31: a job whose worker was killed (SIGKILL) while holding it is resumed by another worker
 * within 10 s (BullMQ's stall settings, libs/platform/src/queue/stall-bound-worker.ts). Worker A sends
 * a two-factor e-mail to an SMTP server that never answers; worker B, started while A holds the job,
 * sends it once A is killed. Servers mode, on Redis (below). The
 * embedded mode is one process owning its PGlite: no second worker can take over there.
 */
// On BullMQ's PostgreSQL backend the same settings apply, but worker B once did not finish starting
// within 60 s while A held the job (a CI run; it passed in three others): not understood yet, so
// only the Redis backend, the one for several workers, is tested here (issue 31's closing note).
(servers ? describe : describe.skip).each([['Redis', {}]])(
  'a killed worker’s job, queues on %s (servers mode)',
  (_backend, overrides: Record<string, string>) => {
    let env: TestEnvironment;
    let api: NestFastifyApplication;
    let blackHole: Awaited<ReturnType<typeof startBlackHole>>;
    let mail: Awaited<ReturnType<typeof startMailCatcher>>;
    let a: ServiceProcess | undefined;
    let b: ServiceProcess | undefined;

    beforeAll(async () => {
      env = await testEnvironment(overrides);
      blackHole = await startBlackHole();
      mail = await startMailCatcher();
      api = await bootApi(env.config);
      await provision(
        api,
        organisationFile('riverside', [userFile('mailer', [], ['north-shop'], { two_factor: 'email' })]),
      );
    }, 120_000);
    afterAll(async () => {
      await stopProcess(a);
      await stopProcess(b);
      await api?.close();
      await blackHole?.stop();
      await mail?.stop();
      await env?.cleanup();
    });

    it('is sent by another worker within 10 s of the kill, once', async () => {
      a = startProcess(BUILT.worker, env.config, { SMTP_URL: blackHole.url });
      await a.waitForLine(/^worker running/);
      await request(api.getHttpServer())
        .post('/auth/api/pre-auth-token')
        .send({ email: EMAIL, password: 'a long enough password' })
        .expect(200);
      await blackHole.holding;
      b = startProcess(BUILT.worker, env.config, { SMTP_URL: mail.url });
      await b.waitForLine(/^worker running/);
      // B is up while A holds the job: only A's death can hand it over.
      expect(mail.mails).toEqual([]);

      a.child.kill('SIGKILL');
      const killed = Date.now();
      await a.exited();
      const sent = await mail.waitFor(EMAIL);
      const resumedAfter = Date.now() - killed;

      expect(sent.raw).toMatch(/^Subject: Your sign-in code/m);
      expect(resumedAfter).toBeLessThan(10_000);
      await new Promise((r) => setTimeout(r, 1_000));
      expect(mail.mails).toHaveLength(1);
    }, 120_000);
  },
);

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { PersonalDataKeys, ProjectionReplayer } from '#app/event-store';
import type { ProvisionResult } from '#app/identity';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logInAll, provision, riversideFile, userFile } from '../support/test-app.js';

/**
 * docs/privacy.md, "Sealed fields in the log", through the whole application: what users write
 * reaches the read tables and the API, never the events table in clear; after their key is
 * destroyed, reads and a replay give the placeholders, and another user is untouched.
 */
describe('personal data sealed in the log (the whole application)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let org: ProvisionResult;
  let tokens: Record<string, string>;
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const ZED = { name: 'Zebedee Quux-Sealed', phone: '07700 900456', description: 'Taxi to Auchtermuchty' };
  const ADA = { name: 'Ada Kept-Sealed', description: 'Bus to Pittenweem' };

  beforeAll(async () => {
    env = await testEnvironment();
    app = await bootStandalone(env.config);
    org = await provision(
      app,
      riversideFile([
        userFile('zed', ['create-expenses'], ['north-shop'], { name: ZED.name, phone: ZED.phone }),
        userFile('ada', ['create-expenses'], ['north-shop'], { name: ADA.name }),
        userFile('admin', ['edit-expense-settings', 'create-expenses'], ['south']),
      ]),
    );
    tokens = await logInAll(app, ['zed', 'ada', 'admin']);
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  const logText = async () =>
    ((await app.get(DataSource).query(`SELECT string_agg(data::text, ' ') AS t FROM events`)) as { t: string }[])[0]!.t;

  it('keeps users’ strings out of the events table while the API shows them; after destroy, placeholders', async () => {
    const type = (
      await http().post('/api/expenses/types').set(as('admin')).send({ name: 'Travel', position: 1 }).expect(201)
    ).body.id;
    const date = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const expense = async (who: string, description: string) =>
      (
        await http()
          .post('/api/expenses')
          .set(as(who))
          .send({ type: { id: type }, date, amount: 12.5, description })
          .expect(201)
      ).body;
    const zedExpense = await expense('zed', ZED.description);
    await expense('ada', ADA.description);
    expect(zedExpense.description).toBe(ZED.description);

    const text = await logText();
    for (const s of [ZED.name, ZED.phone, ZED.description, ADA.name, ADA.description, 'zed@riverside.example'])
      expect(text).not.toContain(s);
    expect(text).toContain('"$sealed"');
    const me = (await http().get('/api/users/me').set(as('zed')).expect(200)).body;
    expect(JSON.stringify(me)).toContain(ZED.name);

    const ds = app.get(DataSource);
    await ds.transaction((tx) => app.get(PersonalDataKeys).destroy([org.users.zed!], tx));
    await app.get(ProjectionReplayer).replay([]);
    const users = (await ds.query(
      `SELECT id::int, display_name, phone, email FROM users WHERE id = ANY($1) ORDER BY id`,
      [[org.users.zed, org.users.ada]],
    )) as { id: number; display_name: string; phone: string | null; email: string }[];
    expect(users.find((u) => u.id === org.users.zed)).toEqual({
      id: org.users.zed,
      display_name: 'Anonymised user',
      phone: null,
      email: `anonymised-${org.users.zed}@anonymised.invalid`,
    });
    expect(users.find((u) => u.id === org.users.ada)!.display_name).toBe(ADA.name);
    const descriptions = (await ds.query(`SELECT user_id::int, description FROM expenses ORDER BY user_id`)) as {
      user_id: number;
      description: string;
    }[];
    expect(descriptions).toEqual(
      expect.arrayContaining([
        { user_id: org.users.zed, description: '' },
        { user_id: org.users.ada, description: ADA.description },
      ]),
    );
  });
});

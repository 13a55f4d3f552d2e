import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type INestApplicationContext, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { startMailCatcher } from '../../../../test/support/mail-catcher.js';
import { bootContext } from '../../../../test/support/test-context.js';
import { testEnvironment, type TestEnvironment } from '../../../../test/support/test-config.js';
import { OutboxMailer, OutboxModule } from './outbox-mailer.js';

const messageIds = (raws: { raw: string }[]) => raws.map((m) => /^Message-ID: (.*)$/im.exec(m.raw)?.[1]?.trim());

/**
 * The outbox against a real SMTP server (docs/adr/0009-postgresql-records-owed-work.md#what-remains):
 * the attempt is recorded before the send and the send after it. A crash between the two is the
 * database refusing the second record (a trigger raising once), after the server accepted the message.
 */
describe('OutboxMailer records the attempt, then the send', () => {
  let env: TestEnvironment;
  let app: INestApplicationContext;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  let outbox: OutboxMailer;
  let ds: DataSource;
  const warn = jest.spyOn(Logger.prototype, 'warn');
  let refusals = 0;
  const to = (who: string) => mail.mails.filter((m) => m.to.includes(who));

  beforeAll(async () => {
    mail = await startMailCatcher({ refuse: (address) => address === 'refused@x.example' && refusals-- > 0 });
    env = await testEnvironment({ SMTP_URL: mail.url });
    app = await bootContext(env.config, [OutboxModule]);
    outbox = app.get(OutboxMailer);
    ds = app.get(DataSource);
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
    await mail?.stop();
    warn.mockRestore();
  });
  afterEach(() => {
    warn.mockClear();
  });

  const possibleDuplicates = () => warn.mock.calls.filter(([, msg]) => /possible duplicate/.test(String(msg)));

  it('a normal send goes once and is recorded; sending the key again sends nothing', async () => {
    const message = { to: 'once@x.example', subject: 'Booked', text: 'You are booked.' };
    await expect(outbox.sendOnce('booking-1', message)).resolves.toBe('sent');
    await expect(outbox.sendOnce('booking-1', message)).resolves.toBe('already sent');

    expect(messageIds(to('once@x.example'))).toEqual(['<booking-1@uvol>']);
    const [row] = await ds.query(
      `SELECT attempts, sent_at IS NOT NULL AS sent FROM mail_deliveries WHERE key = 'booking-1'`,
    );
    expect(row).toEqual({ attempts: 1, sent: true });
    expect(possibleDuplicates()).toHaveLength(0);
    expect([...(await outbox.recorded(['booking-1', 'never']))]).toEqual(['booking-1']);
  });

  it('a message to nobody (an anonymised user has no address) is dropped: nothing sent, nothing recorded', async () => {
    const before = mail.mails.length;
    for (const nobody of ['', '  ', null])
      await expect(
        outbox.sendOnce('to-nobody-1', { to: nobody as string, subject: 'Booked', text: 'You are booked.' }),
      ).resolves.toBe('dropped');
    expect(mail.mails.length).toBe(before);
    expect(await ds.query(`SELECT key FROM mail_deliveries WHERE key = 'to-nobody-1'`)).toEqual([]);
  });

  it('a crash between the send and its record: the retry sends the same Message-ID once more and logs a possible duplicate', async () => {
    const message = { to: 'crash@x.example', subject: 'Booked', text: 'You are booked.' };
    await ds.query(`
      CREATE FUNCTION lose_send_record() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the database went away'; END $$`);
    await ds.query(`
      CREATE TRIGGER lose_send_record BEFORE UPDATE OF sent_at ON mail_deliveries
      FOR EACH ROW WHEN (NEW.key = 'booking-2') EXECUTE FUNCTION lose_send_record()`);
    await expect(outbox.sendOnce('booking-2', message)).rejects.toThrow(/the database went away/);
    await ds.query(`DROP TRIGGER lose_send_record ON mail_deliveries; DROP FUNCTION lose_send_record()`);

    expect(to('crash@x.example')).toHaveLength(1);
    const [attempted] = await ds.query(`SELECT attempts, sent_at FROM mail_deliveries WHERE key = 'booking-2'`);
    expect(attempted).toEqual({ attempts: 1, sent_at: null });
    // It may have gone: a reconciler leaves it to the job's own retry.
    expect([...(await outbox.recorded(['booking-2']))]).toEqual(['booking-2']);
    expect(possibleDuplicates()).toHaveLength(0);

    await expect(outbox.sendOnce('booking-2', message)).resolves.toBe('sent');
    await expect(outbox.sendOnce('booking-2', message)).resolves.toBe('already sent');

    expect(messageIds(to('crash@x.example'))).toEqual(['<booking-2@uvol>', '<booking-2@uvol>']);
    expect(possibleDuplicates()).toHaveLength(1);
    expect(possibleDuplicates()[0]![0]).toMatchObject({
      key: 'booking-2',
      message_id: 'booking-2',
      earlier_attempts: 1,
    });
    const [row] = await ds.query(
      `SELECT attempts, sent_at IS NOT NULL AS sent FROM mail_deliveries WHERE key = 'booking-2'`,
    );
    expect(row).toEqual({ attempts: 2, sent: true });
  });

  it('a send the mail server refused is taken back: its retry is no duplicate, and the key is not recorded meanwhile', async () => {
    const message = { to: 'refused@x.example', subject: 'Booked', text: 'You are booked.' };
    refusals = 1;
    await expect(outbox.sendOnce('booking-3', message)).rejects.toThrow(/Mailbox busy/);
    expect([...(await outbox.recorded(['booking-3']))]).toEqual([]);
    await expect(outbox.sendOnce('booking-3', message)).resolves.toBe('sent');

    expect(messageIds(to('refused@x.example'))).toEqual(['<booking-3@uvol>']);
    expect(possibleDuplicates()).toHaveLength(0);
  });
});

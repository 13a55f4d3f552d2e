import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { ProvisionResult } from '#app/identity';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, logIn, logInAll, organisationFile, provision } from '../support/test-app.js';
import { eventCount } from '../support/nothing-written.js';

describe('organisation settings (docs/http-conventions.md#organisation-settings, #permissions)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let riverside: ProvisionResult;
  const tokens: Record<string, string> = {};
  const http = () => request(app.getHttpServer());
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });

  beforeAll(async () => {
    env = await testEnvironment({ AUTH_RATE_LIMIT_PER_ADDRESS: '10000' });
    app = await bootStandalone(env.config);
    const file = organisationFile('riverside', [
      { key: 'admin', email: 'admin@riverside.example', permissions: ['manage-organisation'] },
      { key: 'integrator', email: 'integrator@riverside.example', permissions: ['manage-integrations'] },
      { key: 'finance', email: 'finance@riverside.example', permissions: ['edit-expense-settings'] },
      { key: 'plain', email: 'plain@riverside.example' },
      { key: 'both', email: 'both@riverside.example', permissions: ['manage-organisation', 'manage-integrations'] },
      { key: 'rotas', email: 'rotas@riverside.example', permissions: ['manage-rotas'] },
    ]);
    riverside = await provision(app, {
      ...file,
      organisation: {
        ...file.organisation,
        settings: {
          expenses_submission_email: 'claims@riverside.example',
          helpdesk_token: 'provisioned-helpdesk-token',
        },
      },
    });
    await provision(
      app,
      organisationFile('hillside', [
        { key: 'other', email: 'other@hillside.example', permissions: ['manage-organisation'] },
      ]),
    );
    Object.assign(tokens, await logInAll(app, ['admin', 'integrator', 'finance', 'plain', 'both', 'rotas']));
    tokens.other = await logIn(app, 'other@hillside.example');
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  const detailed = async (who: string) =>
    (await http().get('/api/organisation/detailed').set(as(who)).expect(200)).body.data;

  it('gives every user the basic view, with the interface’s defaults and types', async () => {
    const { body } = await http().get('/api/organisation').set(as('plain')).expect(200);
    expect(body.data).toEqual({
      name: 'riverside volunteers',
      slug: 'riverside',
      timezone: 'Europe/London',
      date_format: 'j F Y',
      date_format_moment: 'DD MMMM YYYY',
      date_input_format: 'd/m/Y',
      time_format: 'H:i',
      time_input_format: 'H:i',
      analytics_property_id: null,
      web_url: 'http://api.test',
      api_url: 'http://api.test/api',
      forum_url: '',
      minor_age: '18',
      senior_age: '0',
      sso_enabled: false,
    });
    await http().get('/api/organisation').expect(401);
  });

  it('shows each caller only the detailed fields its permissions reach, and never a secret', async () => {
    const admin = await detailed('admin');
    const integrator = await detailed('integrator');
    const finance = await detailed('finance');
    const plain = await detailed('plain');
    expect(admin).toMatchObject({
      dpo_email: '',
      public_site_enabled: '0',
      email_header_colour: '',
      header_logo: null,
      logo: null,
    });
    expect(admin).not.toHaveProperty('idp_domain');
    expect(admin).not.toHaveProperty('expenses_submission_email');
    expect(integrator).toMatchObject({ idp_enabled: '0', helpdesk_token_set: '1', idp_client_secret_set: '0' });
    expect(integrator).not.toHaveProperty('dpo_email');
    expect(finance).toMatchObject({
      expenses_submission_email: 'claims@riverside.example',
      expenses_require_authorisation: '1',
      expenses_max_age: '3',
    });
    expect(finance).not.toHaveProperty('helpdesk_token_set');
    expect(Object.keys(plain).sort()).toEqual(
      Object.keys((await http().get('/api/organisation').set(as('plain'))).body.data).sort(),
    );
    for (const view of [admin, integrator, finance, plain]) {
      for (const secret of [
        'idp_client_secret',
        'helpdesk_token',
        'lms_a_token',
        'lms_a_auth_token',
        'access_password',
      ])
        expect(view).not.toHaveProperty(secret);
      expect(JSON.stringify(view)).not.toContain('provisioned-helpdesk-token');
    }
  });

  it('updates the fields the caller may change and answers the detailed view', async () => {
    const { body } = await http()
      .put('/api/organisation')
      .set(as('admin'))
      .send({
        name: 'Riverside Volunteers',
        email_link_colour: '#AA00CC',
        minor_age: '16',
        dpo_email: 'dpo@riverside.example',
      })
      .expect(200);
    expect(body.data).toMatchObject({
      name: 'Riverside Volunteers',
      email_link_colour: '#aa00cc',
      minor_age: '16',
      dpo_email: 'dpo@riverside.example',
    });
    expect((await http().get('/api/organisation').set(as('plain'))).body.data.name).toBe('Riverside Volunteers');
  });

  it('refuses bad input with the documented status and changes nothing', async () => {
    const before = await detailed('admin');
    const readOnly = await http()
      .put('/api/organisation')
      .set(as('admin'))
      .send({ slug: 'elsewhere', timezone: 'UTC', web_url: 'http://x' })
      .expect(422);
    expect(Object.keys(readOnly.body.errors).sort()).toEqual(['slug', 'timezone', 'web_url']);
    const forbidden = await http()
      .put('/api/organisation')
      .set(as('admin'))
      .send({ name: 'x', idp_domain: 'x', expenses_max_age: '6' })
      .expect(403);
    expect(forbidden.body).toEqual({
      message: expect.stringMatching(/idp_domain, expenses_max_age/),
      status_code: 403,
    });
    const invalid = await http()
      .put('/api/organisation')
      .set(as('admin'))
      .send({
        email_header_colour: 'blue',
        minor_age: 16,
        dpo_email: 'nope',
        public_site_enabled: true,
        no_such_field: 1,
      })
      .expect(422);
    expect(Object.keys(invalid.body.errors)).toEqual(['no_such_field']);
    const values = await http()
      .put('/api/organisation')
      .set(as('admin'))
      .send({ email_header_colour: 'blue', minor_age: 16, dpo_email: 'nope', public_site_enabled: true })
      .expect(422);
    expect(Object.keys(values.body.errors).sort()).toEqual([
      'dpo_email',
      'email_header_colour',
      'minor_age',
      'public_site_enabled',
    ]);
    // A JSON body that is not an object never reaches the field table (the JSON parser refuses it).
    await http()
      .put('/api/organisation')
      .set(as('admin'))
      .set('content-type', 'application/json')
      .send('[1]')
      .expect(400);
    expect(await detailed('admin')).toEqual(before);
  });

  it('keeps secrets write-only: the flag flips, and neither the log nor the read table holds the clear text', async () => {
    const secret = 'idp-secret-value-4711';
    const { body } = await http()
      .put('/api/organisation')
      .set(as('integrator'))
      .send({ idp_client_secret: secret, idp_enabled: '1' })
      .expect(200);
    expect(body.data).toMatchObject({ idp_client_secret_set: '1', idp_enabled: '1' });
    expect(body.data).not.toHaveProperty('idp_client_secret');
    const ds = app.get(DataSource);
    for (const clear of [secret, 'provisioned-helpdesk-token']) {
      const [{ events }] = await ds.query(
        `SELECT count(*)::int AS events FROM events WHERE data::text LIKE $1 OR metadata::text LIKE $1`,
        [`%${clear}%`],
      );
      const [{ rows }] = await ds.query(
        `SELECT count(*)::int AS rows FROM organisation_settings WHERE value::text LIKE $1`,
        [`%${clear}%`],
      );
      expect({ events, rows }).toEqual({ events: 0, rows: 0 });
    }
    const cleared = await http()
      .put('/api/organisation')
      .set(as('integrator'))
      .send({ idp_client_secret: null })
      .expect(200);
    expect(cleared.body.data.idp_client_secret_set).toBe('0');
  });

  it('records every change as an event, readable back as history', async () => {
    const { body } = await http().get('/api/organisation/history').set(as('admin')).expect(200);
    expect(body.meta.pagination.total).toBe('3');
    // As the detailed view: fields of another permission (manage-integrations) are left out for this caller.
    expect(body.data[0]).toEqual({
      changed_at: expect.any(String),
      changed_by: expect.objectContaining({ id: riverside.users.integrator }),
      fields: {},
    });
    expect(body.data[1].fields).toEqual({});
    expect(body.data[2].fields).toMatchObject({ name: 'Riverside Volunteers', email_link_colour: '#aa00cc' });
    // Who reaches both sees them, secrets only as changed or cleared.
    const both = (await http().get('/api/organisation/history').set(as('both')).expect(200)).body;
    expect(both.data[0].fields).toEqual({ idp_client_secret: '(cleared)' });
    expect(both.data[1].fields).toEqual({ idp_client_secret: '(changed)', idp_enabled: '1' });
    await http().get('/api/organisation/history').set(as('plain')).expect(403);
  });

  it('keeps organisations apart', async () => {
    const { body } = await http().get('/api/organisation/detailed').set(as('other')).expect(200);
    expect(body.data).toMatchObject({ slug: 'hillside', name: 'hillside volunteers', dpo_email: '' });
  });

  it('cover_alert_days (docs/rota-domain.md#cover-alerts): a string holding 0–30 (else 422), "0" by default, seen and set only by holders of manage-rotas', async () => {
    expect(await detailed('rotas')).toMatchObject({ cover_alert_days: '0', shift_reminder_hours: '48' });
    for (const who of ['admin', 'plain']) expect(await detailed(who)).not.toHaveProperty('cover_alert_days');
    expect((await http().get('/api/organisation').set(as('rotas')).expect(200)).body.data).not.toHaveProperty(
      'cover_alert_days',
    );
    const before = await eventCount(app.get(DataSource));
    for (const bad of ['31', '-1', '1.5', '1e1', ' 3', 'x', '', 3, null, true]) {
      const res = await http().put('/api/organisation').set(as('rotas')).send({ cover_alert_days: bad }).expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['cover_alert_days']);
    }
    const forbidden = await http()
      .put('/api/organisation')
      .set(as('admin'))
      .send({ cover_alert_days: '3' })
      .expect(403);
    expect(forbidden.body.message).toMatch(/cover_alert_days/);
    expect(await eventCount(app.get(DataSource))).toBe(before);
    for (const value of ['30', '0', '7']) {
      const res = await http().put('/api/organisation').set(as('rotas')).send({ cover_alert_days: value }).expect(200);
      expect(res.body.data.cover_alert_days).toBe(value);
    }
    expect(
      (await http().put('/api/organisation').set(as('admin')).send({ name: 'R' }).expect(200)).body.data,
    ).not.toHaveProperty('cover_alert_days');
    expect((await detailed('rotas')).cover_alert_days).toBe('7');
  });
});

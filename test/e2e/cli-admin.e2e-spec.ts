import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { eventually } from '../support/eventually.js';
import { type CliRun, querySql, runCli } from '../support/run-cli.js';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootStandalone, organisationFile, TEST_PASSWORD } from '../support/test-app.js';

type Http = () => ReturnType<typeof request>;

/** Each test runs the CLI (a child process that loads the application) several times. */
const SLOW = 240_000;

/**
 * The admin command line as an operator meets it (the compiled CLI in a child process, against a
 * real database): help, one-line errors and exit codes, provisioning's one-pass report, and the
 * administrators' commands on users, checked over HTTP where they change what the API allows.
 */
describe('npm run cli: help, errors and the users: commands', () => {
  let env: TestEnvironment;
  let ids: {
    organisation: { id: number };
    teams: Record<string, number>;
    role_profiles: Record<string, number>;
    users: Record<string, number>;
  };
  let hillside: typeof ids;
  const cli = (...args: string[]) => runCli(env, args);
  const events = async () => (await querySql<{ n: number }>(env, `SELECT count(*)::int AS n FROM events`))[0]!.n;
  const file = (name: string, content: unknown) => {
    const path = join(env.config.dataDir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  /** An error as an operator should see it: nothing on stdout, one line on stderr, no stack trace. */
  function oneLine(result: CliRun, code: number, pattern: RegExp): void {
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr.trimEnd().split('\n') }).toEqual({
      code,
      stdout: '',
      stderr: [expect.stringMatching(pattern)],
    });
  }

  /**
   * HTTP before and after a CLI step. Against PostgreSQL the API keeps running while the CLI writes
   * (its caches hear the change); embedded, the database folder is one process's, so the API stops
   * for the step and starts again.
   */
  async function acrossCli(
    before: (http: Http) => Promise<void>,
    step: () => Promise<void>,
    after: (http: Http) => Promise<void>,
  ): Promise<void> {
    let app = await bootStandalone(env.config);
    try {
      await before(() => request(app.getHttpServer()));
      if (env.embedded) await app.close();
      await step();
      if (env.embedded) app = await bootStandalone(env.config);
      await after(() => request(app.getHttpServer()));
    } finally {
      await app.close();
    }
  }

  const logIn = async (http: Http, email: string) => {
    const pre = await http().post('/auth/api/pre-auth-token').send({ email, password: TEST_PASSWORD });
    if (pre.status !== 200) return { status: pre.status, message: pre.body.message as string, token: '' };
    const jwt = await http().post('/auth/api/token').send({ token: pre.body.token }).expect(200);
    return { status: 200, message: '', token: jwt.body.token as string };
  };

  beforeAll(async () => {
    env = await testEnvironment();
  });
  afterAll(() => env?.cleanup());

  describe('help and usage', () => {
    it(
      '--help, -h and help list every command with its arguments, the output rule and the exit codes, on stdout, exit 0',
      async () => {
        for (const flag of ['--help', '-h', 'help']) {
          const { code, stdout, stderr } = await cli(flag);
          expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
          for (const usage of [
            'migrate',
            'provision <file>',
            'users:add <slug> <file>',
            'users:grant <email> <permission...>',
            'users:revoke <email> <permission...>',
            'users:hold <email>',
            'users:release <email>',
            'projections:status',
            'projections:replay [name ...]',
          ]) {
            expect(stdout).toContain(`  ${usage} `);
          }
          expect(stdout).toMatch(/Exit codes:\n {2}0 {2}done\n {2}1 {2}failed: .*\n.*\n {2}2 {2}bad usage/);
          expect(stdout).toContain('LOG_LEVEL=debug');
        }
      },
      SLOW,
    );

    it(
      '<command> --help says what the command does, its arguments, its output and the exit codes, exit 0',
      async () => {
        for (const name of [
          'migrate',
          'provision',
          'users:add',
          'users:grant',
          'users:revoke',
          'users:hold',
          'users:release',
          'projections:status',
          'projections:replay',
        ]) {
          const { code, stdout, stderr } = await cli(name, '--help');
          expect({ name, code, stderr }).toEqual({ name, code: 0, stderr: '' });
          expect(stdout).toMatch(new RegExp(`^Usage: npm run cli -- ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
          expect(stdout).toContain('Exit codes:');
        }
        const add = (await cli('help', 'users:add')).stdout;
        expect(add).toMatch(/"teams".*"role_profiles"/s);
        expect((await cli('users:grant', 'x@y.example', '-h')).stdout).toContain(
          'manage-organisation, manage-integrations',
        );
        expect((await cli('users:hold', '--help')).stdout).toContain(
          'status on_hold: they still log in; rota bookings of them need ignore_on_hold',
        );
      },
      SLOW,
    );

    it(
      '--version and -V print the version of package.json alone on stdout, exit 0',
      async () => {
        const { version } = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as {
          version: string;
        };
        for (const flag of ['--version', '-V']) {
          expect(await cli(flag)).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
        }
        expect((await cli('--help')).stdout).toContain('npm run cli -- --version ');
      },
      SLOW,
    );

    it(
      'a mistyped command or option is refused with the near name it may have meant, exit 2',
      async () => {
        oneLine(
          await cli('provison', 'x.json'),
          2,
          /^unknown command "provison"; did you mean provision\? \(npm run cli -- --help lists the commands\)$/,
        );
        oneLine(await cli('queues:stats'), 2, /^unknown command "queues:stats"; did you mean queues:status\? /);
        oneLine(await cli('help', 'users:hld'), 2, /^unknown command "users:hld"; did you mean users:hold\? /);
        oneLine(
          await cli('users:hold', '--hlep', 'alice@riverside.example'),
          2,
          /^users:hold: unknown option "--hlep"; did you mean --help\? \(npm run cli -- users:hold --help\)$/,
        );
        oneLine(await cli('--versoin'), 2, /^unknown option "--versoin"; did you mean --version\? /);
      },
      SLOW,
    );

    it(
      'bad usage is one line on stderr pointing at --help, exit 2, and opens no database',
      async () => {
        oneLine(await cli(), 2, /^no command given \(npm run cli -- --help lists the commands\)$/);
        oneLine(await cli('nope'), 2, /^unknown command "nope" \(npm run cli -- --help lists the commands\)$/);
        oneLine(await cli('help', 'nope'), 2, /^unknown command "nope"/);
        oneLine(await cli('provision'), 2, /^provision: expects <file>, got none \(npm run cli -- provision --help\)$/);
        oneLine(await cli('provision', 'a.json', 'b.json'), 2, /^provision: expects <file>, got "a.json" "b.json"/);
        oneLine(
          await cli('users:grant', 'alice@riverside.example'),
          2,
          /^users:grant: expects <email> <permission\.\.\.>, got "alice@riverside\.example" \(npm run cli -- users:grant --help\)$/,
        );
        oneLine(
          await cli('users:hold', '--force', 'alice@riverside.example'),
          2,
          /^users:hold: unknown option "--force" \(npm run cli -- users:hold --help\)$/,
        );
        oneLine(
          await cli('users:grant', 'alice@riverside.example', 'approve-claims', 'fly'),
          2,
          /^users:grant: unknown permission "fly"; the permissions are: manage-organisation, .* \(npm run cli -- users:grant --help\)$/,
        );
        oneLine(
          await cli('users:revoke', 'alice@riverside.example', 'root'),
          2,
          /^users:revoke: unknown permission "root"/,
        );
      },
      SLOW,
    );
  });

  describe('expected failures: one line, no stack trace', () => {
    it(
      'an embedded database another process holds: exit 1, naming the process',
      async () => {
        // A DATA_DIR whose embedded database this (live) test process claims, as `npm start` would.
        const dataDir = join(env.config.dataDir, 'locked');
        mkdirSync(join(dataDir, 'pglite'), { recursive: true });
        writeFileSync(join(dataDir, 'pglite', 'owner.pid'), String(process.pid));
        const result = await runCli(env, ['users:hold', 'alice@riverside.example'], {
          DATA_DIR: dataDir,
          DATABASE_URL: '',
        });
        oneLine(
          result,
          1,
          new RegExp(
            `^users:hold: The embedded database in .* is in use by process ${process.pid}\\. Stop that process first`,
          ),
        );
      },
      SLOW,
    );

    it(
      'a missing or broken file is refused before the database is opened: at once, even while another process holds it',
      async () => {
        // Issue 25, item 6: a mistyped path with npm start running was reported as "database in use", after seconds.
        const dataDir = join(env.config.dataDir, 'held');
        mkdirSync(join(dataDir, 'pglite'), { recursive: true });
        writeFileSync(join(dataDir, 'pglite', 'owner.pid'), String(process.pid));
        const embedded = { DATA_DIR: dataDir, DATABASE_URL: '' };
        let started = Date.now();
        oneLine(
          await runCli(env, ['provision', join(dataDir, 'mistyped.json')], embedded),
          2,
          /^provision: cannot read .*mistyped\.json: no such file$/,
        );
        expect(Date.now() - started).toBeLessThan(3_000);
        started = Date.now();
        oneLine(
          await runCli(env, ['users:add', 'riverside', file('half.json', '{"users": [')], embedded),
          2,
          /^users:add: .*half\.json is not JSON: /,
        );
        expect(Date.now() - started).toBeLessThan(3_000);
        expect(existsSync(join(dataDir, 'pglite', 'PG_VERSION'))).toBe(false);
      },
      SLOW,
    );

    it(
      'a file that is missing, a folder or not JSON: exit 2',
      async () => {
        oneLine(
          await cli('provision', join(env.config.dataDir, 'missing.json')),
          2,
          /^provision: cannot read .*missing\.json: no such file$/,
        );
        oneLine(await cli('provision', env.config.dataDir), 2, /^provision: cannot read .*: it is a folder$/);
        oneLine(
          await cli('provision', file('broken.json', '{"organisation": {')),
          2,
          /^provision: .*broken\.json is not JSON: /,
        );
        oneLine(
          await cli('users:add', 'riverside', file('broken.json', '[1,')),
          2,
          /^users:add: .*broken\.json is not JSON: /,
        );
      },
      SLOW,
    );
  });

  describe('provision', () => {
    it(
      'prints the key → id map alone on stdout (progress on stderr), so `> ids.json` is valid JSON',
      async () => {
        const riverside = organisationFile('riverside', [
          { key: 'alice', email: 'alice@riverside.example', permissions: ['manage-organisation'] },
          { key: 'bob', email: 'bob@riverside.example' },
        ]);
        // A team's optional fields (provisioning.md): given on one team, left out on the other.
        const teams = [
          riverside.teams[0],
          { ...riverside.teams[1], description: 'The shop', icon: 'shop', hidden: true, disabled: true },
        ];
        const result = await cli('provision', file('riverside.json', { ...riverside, teams }));
        expect(result.code).toBe(0);
        expect(result.stdout.endsWith('}\n') && result.stdout.split('\n').length).toBe(2);
        ids = JSON.parse(result.stdout);
        expect(ids).toMatchObject({
          organisation: { slug: 'riverside' },
          users: { alice: expect.any(Number), bob: expect.any(Number) },
        });
        expect(result.stderr).toBe(
          `provisioned riverside (id ${ids.organisation.id}): 2 teams, 1 role profile, 0 categories, 2 users\n`,
        );
        expect(
          await querySql(
            env,
            `SELECT name, description, icon, hidden, disabled FROM teams WHERE organisation_id = $1 ORDER BY id`,
            [ids.organisation.id],
          ),
        ).toEqual([
          { name: 'North region', description: null, icon: '', hidden: false, disabled: false },
          { name: 'North shop', description: 'The shop', icon: 'shop', hidden: true, disabled: true },
        ]);
        hillside = JSON.parse(
          (
            await cli(
              'provision',
              file('hillside.json', organisationFile('hillside', [{ key: 'hal', email: 'hal@hillside.example' }])),
            )
          ).stdout,
        );
      },
      SLOW,
    );

    it(
      'reports every problem of a file in one run, of every kind, each at its place, and writes nothing',
      async () => {
        const before = await events();
        const base = organisationFile('riverside', [
          { key: 'carol', email: 'Alice@Riverside.example', permissions: ['fly'] },
          {
            key: 'carol',
            email: 'dave@riverside.example',
            password: 'short',
            two_factor: 'auth_app',
            roles: [{ team: 'west', role_profile: 'shop' }],
          },
          { key: 'erin', email: 'dave@riverside.example', two_factor: 'sms' },
        ]);
        const bad = {
          ...base,
          organisation: {
            ...base.organisation,
            timezone: 'Mars/Olympus',
            settings: { expenses_submission_email: 'not an address', colour: 'red' },
          },
          teams: [...base.teams, { key: 'north', name: 'North again', parent: 'nowhere' }],
        };
        const result = await cli('provision', file('bad.json', bad));
        expect(result.code).toBe(2);
        expect(result.stdout).toBe('');
        expect(result.stderr.trimEnd().split('\n')).toEqual([
          'provision: the provisioning file was refused (14 problems):',
          '  - organisation.slug: "riverside" exists already',
          expect.stringMatching(/^ {2}- organisation\.timezone: must be an IANA time zone name/),
          expect.stringMatching(/^ {2}- organisation\.settings\.expenses_submission_email: /),
          '  - organisation.settings.colour: The colour field does not exist.',
          '  - teams[2] "north".key: the key is used twice',
          '  - teams[2] "north".parent: "nowhere" is not an earlier team',
          '  - users[0] "carol".email: alice@riverside.example belongs to an existing user',
          expect.stringMatching(/^ {2}- users\[0\] "carol"\.permissions\[0\]: /),
          '  - users[1] "carol".key: the key is used twice',
          '  - users[1] "carol".password: must be at least 8 characters',
          '  - users[1] "carol".totp_secret: two_factor auth_app needs a totp_secret',
          '  - users[1] "carol".roles[0].team: unknown team "west"',
          '  - users[2] "erin".email: dave@riverside.example is used twice',
          '  - users[2] "erin".phone: two_factor sms needs a phone',
        ]);
        expect(await events()).toBe(before);
      },
      SLOW,
    );
  });

  describe('users:add', () => {
    const carol = {
      key: 'carol',
      email: 'carol@riverside.example',
      password: TEST_PASSWORD,
      display_name: 'Carol',
      permissions: ['create-expenses'],
      roles: [{ team: 'north-shop', role_profile: 'shop' }],
    };

    it(
      'refuses an organisation nobody has: one line, exit 2',
      async () => {
        oneLine(
          await cli(
            'users:add',
            'nowhere',
            file('carol.json', { teams: ids.teams, role_profiles: ids.role_profiles, users: [carol] }),
          ),
          2,
          /^users:add: No organisation has the slug "nowhere"\.$/,
        );
      },
      SLOW,
    );

    it(
      "reports every problem of the file in one run (ids of another organisation, addresses taken, provisioning's checks) and writes nothing",
      async () => {
        const before = await events();
        const bad = {
          teams: { 'north-shop': ids.teams['north-shop'], theirs: hillside.teams.north },
          role_profiles: { shop: ids.role_profiles.shop, ghost: 999_999 },
          users: [
            {
              ...carol,
              roles: [
                { team: 'theirs', role_profile: 'ghost' },
                { team: 'south', role_profile: 'shop' },
              ],
            },
            { ...carol, email: 'HAL@hillside.example', two_factor: 'sms' },
          ],
        };
        const result = await cli('users:add', 'riverside', file('bad-users.json', bad));
        expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
        expect(result.stderr.trimEnd().split('\n')).toEqual([
          'users:add: the users file was refused (6 problems):',
          `  - teams.theirs: ${hillside.teams.north} is not a team of this organisation`,
          '  - role_profiles.ghost: 999999 is not a role profile of this organisation',
          '  - users[0] "carol".roles[1].team: unknown team "south"',
          '  - users[1] "carol".key: the key is used twice',
          '  - users[1] "carol".email: hal@hillside.example belongs to an existing user',
          '  - users[1] "carol".phone: two_factor sms needs a phone',
        ]);
        expect(await events()).toBe(before);
      },
      SLOW,
    );

    it(
      'adds the users and their roles, prints the key → id map alone on stdout, and the new user logs in',
      async () => {
        const result = await cli(
          'users:add',
          'riverside',
          file('carol.json', { teams: ids.teams, role_profiles: ids.role_profiles, users: [carol] }),
        );
        expect(result.code).toBe(0);
        const added = JSON.parse(result.stdout);
        expect(added).toEqual({ users: { carol: expect.any(Number) }, roles: { carol: [expect.any(Number)] } });
        expect(result.stderr).toBe('added 1 user to riverside\n');
        expect(
          await querySql(
            env,
            `SELECT organisation_id::int, team_id::int, role_profile_id::int FROM roles WHERE user_id = $1`,
            [added.users.carol],
          ),
        ).toEqual([
          {
            organisation_id: ids.organisation.id,
            team_id: ids.teams['north-shop'],
            role_profile_id: ids.role_profiles.shop,
          },
        ]);
        expect(
          await querySql(env, `SELECT metadata->'actor' AS actor FROM events WHERE stream_id = $1`, [
            `identity.User-${added.users.carol}`,
          ]),
        ).toEqual([{ actor: { kind: 'system', reason: 'cli users:add' } }]);
        const again = await cli(
          'users:add',
          'riverside',
          file('carol.json', { teams: ids.teams, role_profiles: ids.role_profiles, users: [carol] }),
        );
        expect(again.stderr).toContain('users[0] "carol".email: carol@riverside.example belongs to an existing user');
        const app = await bootStandalone(env.config);
        try {
          const http = () => request(app.getHttpServer());
          const { token } = await logIn(http, 'carol@riverside.example');
          await http().get('/api/users/me').set('Authorization', `Bearer ${token}`).expect(200);
        } finally {
          await app.close();
        }
      },
      SLOW,
    );
  });

  describe('users:grant and users:revoke', () => {
    it(
      'refuses an address nobody has: one line, exit 2',
      async () => {
        oneLine(
          await cli('users:grant', 'nobody@riverside.example', 'approve-claims'),
          2,
          /^users:grant: No user has the e-mail address nobody@riverside\.example\.$/,
        );
        oneLine(
          await cli('users:hold', 'nobody@riverside.example'),
          2,
          /^users:hold: No user has the e-mail address nobody@riverside\.example\.$/,
        );
      },
      SLOW,
    );

    it(
      'grants what the user lacks; granting it again changes and appends nothing',
      async () => {
        const first = await cli('users:grant', 'BOB@riverside.example', 'approve-claims', 'create-expenses');
        expect(first.code).toBe(0);
        expect(JSON.parse(first.stdout)).toEqual({
          id: ids.users.bob,
          email: 'bob@riverside.example',
          organisation: 'riverside',
          permissions: ['approve-claims', 'create-expenses'],
          held: false,
          changed: true,
        });
        expect(first.stderr).toBe('granted approve-claims, create-expenses to bob@riverside.example (riverside)\n');
        const before = await events();
        const again = await cli('users:grant', 'bob@riverside.example', 'approve-claims');
        expect({ code: again.code, changed: JSON.parse(again.stdout).changed, stderr: again.stderr }).toEqual({
          code: 0,
          changed: false,
          stderr: 'bob@riverside.example (riverside): holds them already; nothing changed\n',
        });
        expect(await events()).toBe(before);
      },
      SLOW,
    );

    it(
      'a revoked permission is refused by the API from the next request (403); revoking it again changes nothing',
      async () => {
        let token = '';
        await acrossCli(
          async (http) => {
            ({ token } = await logIn(http, 'alice@riverside.example'));
            await http().get('/api/organisation/history').set('Authorization', `Bearer ${token}`).expect(200);
          },
          async () => {
            const result = await cli('users:revoke', 'alice@riverside.example', 'manage-organisation');
            expect({ code: result.code, permissions: JSON.parse(result.stdout).permissions }).toEqual({
              code: 0,
              permissions: [],
            });
          },
          async (http) => {
            await eventually(
              async () =>
                (await http().get('/api/organisation/history').set('Authorization', `Bearer ${token}`)).status === 403,
            );
            await http().get('/api/users/me').set('Authorization', `Bearer ${token}`).expect(200);
          },
        );
        const before = await events();
        expect(
          JSON.parse((await cli('users:revoke', 'alice@riverside.example', 'manage-organisation')).stdout).changed,
        ).toBe(false);
        expect(await events()).toBe(before);
      },
      SLOW,
    );
  });

  describe('users:hold and users:release', () => {
    const ON_HOLD = { id: 'on_hold', name: 'On hold', contactable: false };
    const ACTIVE = { id: 'active', name: 'Active', contactable: true };
    const statusOf = async (http: Http, token: string) =>
      (await http().get('/api/users/me').set('Authorization', `Bearer ${token}`).expect(200)).body.data.status;

    it(
      'a held user is on hold (status on_hold) and still logs in, old tokens keep working; holding again changes nothing; release makes them active',
      async () => {
        let old = '';
        await acrossCli(
          async (http) => {
            ({ token: old } = await logIn(http, 'bob@riverside.example'));
            expect(await statusOf(http, old)).toEqual(ACTIVE);
          },
          async () => {
            const held = await cli('users:hold', 'bob@riverside.example');
            expect({ code: held.code, out: JSON.parse(held.stdout) }).toEqual({
              code: 0,
              out: {
                id: ids.users.bob,
                email: 'bob@riverside.example',
                organisation: 'riverside',
                permissions: expect.any(Array),
                held: true,
                changed: true,
              },
            });
            expect(held.stderr).toBe('put on hold (status on_hold): bob@riverside.example (riverside)\n');
          },
          async (http) => {
            // The token from before the hold still works, and the user still logs in.
            await eventually(async () => JSON.stringify(await statusOf(http, old)) === JSON.stringify(ON_HOLD));
            const fresh = await logIn(http, 'bob@riverside.example');
            expect(fresh.status).toBe(200);
            expect(await statusOf(http, fresh.token)).toEqual(ON_HOLD);
          },
        );
        expect(
          await querySql(env, `SELECT metadata->'actor' AS actor FROM events WHERE type = 'identity.UserHeld'`),
        ).toEqual([{ actor: { kind: 'system', reason: 'cli users:hold' } }]);

        const before = await events();
        const again = await cli('users:hold', 'bob@riverside.example');
        expect({ code: again.code, out: JSON.parse(again.stdout), stderr: again.stderr }).toMatchObject({
          code: 0,
          out: { held: true, changed: false },
          stderr: 'bob@riverside.example (riverside): is on hold already; nothing changed\n',
        });
        expect(await events()).toBe(before);

        const released = await cli('users:release', 'bob@riverside.example');
        expect({ code: released.code, out: JSON.parse(released.stdout), stderr: released.stderr }).toMatchObject({
          code: 0,
          out: { held: false, changed: true },
          stderr: 'released (status active): bob@riverside.example (riverside)\n',
        });
        expect(JSON.parse(released.stdout)).not.toHaveProperty('sessions_ended');
        const afterRelease = await events();
        expect(JSON.parse((await cli('users:release', 'bob@riverside.example')).stdout)).toMatchObject({
          held: false,
          changed: false,
        });
        expect(await events()).toBe(afterRelease);
        const app = await bootStandalone(env.config);
        try {
          const http = () => request(app.getHttpServer());
          expect(await statusOf(http, old)).toEqual(ACTIVE);
          const { token } = await logIn(http, 'bob@riverside.example');
          expect(await statusOf(http, token)).toEqual(ACTIVE);
        } finally {
          await app.close();
        }
      },
      SLOW,
    );
  });
});

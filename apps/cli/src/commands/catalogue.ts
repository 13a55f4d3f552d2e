import { UsageError } from '../usage.js';
import { readJson } from './input.js';

/**
 * What the command line knows about each command before it loads the application: its usage,
 * its help, how many arguments it takes, and the checks that need no database. Loading the
 * application takes seconds; help and bad usage answer without it (commands.ts holds the runs).
 */
export interface CommandInfo {
  /** `users:add <slug> <file>`: the name and its arguments, as usage shows them (and commander parses them). */
  readonly usage: string;
  /** One line for the list of commands. */
  readonly summary: string;
  /** `--help`: what it does, its arguments, its output, in lines. */
  help(): Promise<readonly string[]>;
  /** Its options, as commander takes them (`--as-of <date>`); their values reach the run by camelCase name (`asOf`). */
  readonly options?: readonly string[];
  /** Checks of the arguments that need no database (a UsageError: exit 2 before anything is opened). */
  check?(args: readonly string[], options: Readonly<Record<string, string>>): Promise<void>;
}

/** The permission names, from identity (loaded only for the commands that name permissions). */
async function permissionNames(): Promise<readonly string[]> {
  return (await import('#app/identity')).PERMISSIONS;
}

const EMAIL_ARGUMENT =
  "  <email>         the user's e-mail address (any case); addresses are unique across the service, so it names one user of one organisation";
const USER_OUTPUT = [
  'Output: one JSON object on stdout, the user as the command left them:',
  '  {"id":5,"email":"alice@riverside.example","organisation":"riverside","permissions":[…],"held":false,"changed":true}',
  '"changed" is false when there was nothing to do (and nothing was recorded). A line saying what happened goes to stderr.',
];
const permissionList = async () => [
  `The permissions (docs/http-conventions.md#permissions): ${(await permissionNames()).join(', ')}.`,
  'Another name is refused (exit 2) and nothing changes.',
];

async function checkPermissions([, ...names]: readonly string[]): Promise<void> {
  const known = await permissionNames();
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length)
    throw new UsageError(
      `unknown permission ${unknown.map((p) => `"${p}"`).join(', ')}; the permissions are: ${known.join(', ')}`,
    );
}

/** The queue names, from the contexts (loaded only for the queue commands). */
async function queueNames(): Promise<readonly string[]> {
  return (await import('../../../common/core.js')).queues;
}

const lines =
  (...text: string[]) =>
  async () =>
    text;

const RETENTION_OPTIONS = ['--as-of <date>', '--org <slug>'];
const RETENTION_ARGUMENTS = [
  'Options:',
  "  --as-of <date>  the date (YYYY-MM-DD) to run as, in each organisation's zone (default: its today)",
  '  --org <slug>    one organisation (default: every one); no organisation with the slug: exit 2',
];

async function checkRetention(_args: readonly string[], options: Readonly<Record<string, string>>): Promise<void> {
  const asOf = options.asOf;
  if (asOf === undefined) return;
  const { parseCalendarDate } = await import('#app/platform');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(asOf) || !parseCalendarDate(asOf))
    throw new UsageError(`--as-of must be a date as YYYY-MM-DD, got "${asOf}"`);
}

export const catalogue: Record<string, CommandInfo> = {
  migrate: {
    usage: 'migrate',
    summary: 'run the pending database migrations',
    help: lines(
      'Runs the migrations the database has not had yet, under an advisory lock (several processes may try at once;',
      'one runs them). `npm start` and the API run them at start as well; every other command here does too.',
      '',
      'Output: what ran, on stdout.',
    ),
  },

  provision: {
    usage: 'provision <file>',
    summary: 'create an organisation with its teams, role profiles, categories and users from a JSON file',
    async check([path]) {
      await readJson(path!);
    },
    help: lines(
      'Brings an organisation up from a provisioning file (its format: docs/provisioning.md). The whole file is',
      "checked first, and every problem is reported in one run, each naming its place in the file and the entry's",
      'key (users[2] "bob".email: …): the shape and every field, keys and e-mail addresses used twice, a team\'s',
      "parent, a role's team and role profile, a second factor without its data, settings the organisation refuses,",
      'a slug or an address that exists already. A refused file writes nothing; otherwise everything is created in',
      'one go.',
      '',
      'Arguments:',
      '  <file>          the provisioning file (JSON)',
      '',
      'Output: the key → id map, alone on stdout, as one line of JSON:',
      '  {"organisation":{"id":1,"slug":"riverside"},"teams":{"north":1},"role_profiles":{"shop":1},',
      '   "categories":{},"users":{"alice":1},"roles":{"alice":[1]}}',
      'so `npm run -s cli -- provision riverside.json > ids.json` keeps it. Keep it: users:add takes its "teams"',
      'and "role_profiles" maps. A one-line summary goes to stderr. A refused file: nothing on stdout; on stderr a',
      'line saying how many problems there are, then one line per problem.',
    ),
  },

  'users:add': {
    usage: 'users:add <slug> <file>',
    summary: 'add users (and their roles) to an existing organisation from a JSON file',
    async check([, path]) {
      await readJson(path!);
    },
    help: lines(
      "Adds users, with their roles, to the organisation <slug>, with provisioning's checks, all reported in one",
      'run: each entry as in a provisioning file\'s "users", keys and addresses used twice, a second factor without',
      'its data, roles naming keys the file does not map, ids that are not a team or role profile of <slug>, and',
      'addresses that belong to a user already (of any organisation: an address is unique across the service).',
      'A refused file writes nothing; otherwise every user and role is created in one go.',
      '',
      'Arguments:',
      "  <slug>          the organisation's slug",
      '  <file>          a JSON object: "users", a list in the provisioning file\'s format, whose roles name teams',
      '                  and role profiles by keys; "teams" and "role_profiles" map those keys to the ids they have',
      '                  (the maps `provision` printed, as they are; either may be left out when no role needs it):',
      '                    {"teams":{"north-shop":2},"role_profiles":{"shop":1},',
      '                     "users":[{"key":"carol","email":"carol@riverside.example","password":"…",',
      '                               "display_name":"Carol","permissions":["create-expenses"],',
      '                               "roles":[{"team":"north-shop","role_profile":"shop"}]}]}',
      '',
      'Output: the key → id map, alone on stdout: {"users":{"carol":7},"roles":{"carol":[12]}}; a one-line summary',
      'on stderr. A refused file is reported as provision reports one. No organisation with the slug: exit 2.',
    ),
  },

  'users:grant': {
    usage: 'users:grant <email> <permission...>',
    summary: 'give a user permissions',
    help: async () => [
      'Gives the user each permission named. One they hold already is left as it is: granting only what they hold',
      "changes and records nothing. The API sees the change from the user's next request on.",
      '',
      'Arguments:',
      EMAIL_ARGUMENT,
      '  <permission>    one or more permission names',
      '',
      ...(await permissionList()),
      '',
      ...USER_OUTPUT,
    ],
    check: checkPermissions,
  },

  'users:revoke': {
    usage: 'users:revoke <email> <permission...>',
    summary: 'take permissions away from a user',
    help: async () => [
      'Takes each permission named away from the user. One they do not hold is ignored: revoking only what they',
      "lack changes and records nothing. The API refuses what needed it (403) from the user's next request on.",
      '',
      'Arguments:',
      EMAIL_ARGUMENT,
      '  <permission>    one or more permission names',
      '',
      ...(await permissionList()),
      '',
      ...USER_OUTPUT,
    ],
    check: checkPermissions,
  },

  'users:hold': {
    usage: 'users:hold <email>',
    summary: 'put a user on hold (status on_hold); they still log in',
    help: lines(
      'Puts the user on hold (status on_hold: they still log in; rota bookings of them need ignore_on_hold).',
      "It is the spec's status, the one a provisioning file's users[].status sets: the API shows it in the user's",
      '"status" ({"id":"on_hold","name":"On hold","contactable":false}), and an on-hold user cannot add shifts to',
      'themselves. Their log-ins and tokens are untouched. Holding an on-hold user (held, or provisioned on hold)',
      'changes nothing. users:release undoes it.',
      '',
      'Arguments:',
      EMAIL_ARGUMENT,
      '',
      ...USER_OUTPUT,
      '"held" is true when the user is on hold.',
    ),
  },

  'users:release': {
    usage: 'users:release <email>',
    summary: 'take a user off hold (status back to active)',
    help: lines(
      'Takes the user off hold: their status is back to active. Releasing an active user changes nothing.',
      '',
      'Arguments:',
      EMAIL_ARGUMENT,
      '',
      ...USER_OUTPUT,
      '"held" is true when the user is on hold.',
    ),
  },

  'users:export': {
    usage: 'users:export <user>',
    summary: "print a user's personal-data export (everything held about them) as JSON",
    help: lines(
      'Prints what GET /api/users/{id}/personal-data answers in "data" (docs/privacy.md#access-and-portability): the',
      "user's record, roles, every shift ever booked for them (cancelled ones with cancelled_at), expenses, claims,",
      'files, log-ins and calendar feeds, with generated_at. Other people appear by id only; secrets (password hash,',
      'second-factor keys, feed tokens) never. For a request made by post: it reads, and writes nothing.',
      '',
      'Arguments:',
      "  <user>          the user's e-mail address (any case) or id",
      '',
      'Output: one JSON object on stdout. No user with that address or id: exit 2.',
    ),
  },

  'users:anonymise': {
    usage: 'users:anonymise <user...>',
    summary: 'anonymise users for good (requests made by post; docs/privacy.md)',
    help: lines(
      'Anonymises each user named, for good, as POST /api/users/{id}/anonymise does (docs/privacy.md#anonymising-a-user):',
      'they cannot log in and every token of theirs is dead; their shifts that have not started are cancelled and',
      'their series end today; their expenses and claims stay with their texts emptied and attachments removed;',
      'wherever they appear they are "Anonymised user". It cannot be undone. Users already anonymised are skipped.',
      'After a restore from a backup, run it with the ids privacy:anonymised printed to apply them again.',
      '',
      'Arguments:',
      '  <user...>       e-mail addresses (any case) or user ids; an anonymised user has no address left, so only',
      '                  their id names them. If any names no user: exit 2 and nobody is anonymised.',
      '',
      'Output: one line of JSON on stdout, the ids this run anonymised: {"anonymised":[5,9]}.',
    ),
  },

  'privacy:anonymised': {
    usage: 'privacy:anonymised',
    summary: 'every anonymised user, oldest first, to keep outside the backups',
    help: lines(
      'Lists every anonymised user of every organisation, oldest anonymisation first. Keep it outside the',
      'backups: a backup taken before an anonymisation still holds the user; after a restore, users:anonymise',
      'with these ids applies them again (docs/privacy.md#anonymising-a-user).',
      '',
      'Output: a JSON array on stdout: [{"user_id":5,"organisation":"riverside","anonymised_at":"2026-03-02T10:00:00.000Z"}].',
    ),
  },

  'projections:status': {
    usage: 'projections:status',
    summary: 'each projection and reactor with its checkpoint and how far behind the log it is',
    help: lines(
      'Lists each projection and reactor: its checkpoint, how many events of the log it has not seen, and its state',
      '(live, or stale when its code changed since its tables were last rebuilt: run projections:replay for it).',
      '',
      'Output: a table on stdout.',
    ),
  },

  'projections:replay': {
    usage: 'projections:replay [name ...]',
    summary: 'rebuild the named projections (all when none is named) from the event log',
    help: lines(
      'Rebuilds the tables of the named projections (every projection when none is named) from the event log into',
      'shadow tables, catches up with what was appended meanwhile, and swaps them in under a short lock. With',
      'PostgreSQL (DATABASE_URL) the API keeps serving meanwhile; in the embedded mode the command opens the data',
      'folder itself, so stop `npm start` first. One replay at a time: another one running is a failure (exit 1).',
      'An unknown name: exit 2.',
      '',
      'Arguments:',
      '  [name ...]      projection names, as projections:status lists them',
      '',
      'Output: progress on stderr (a bar on a terminal, a plain line every few seconds otherwise), then one line on',
      'stdout: how many events went into which projections, and how fast.',
    ),
  },

  'queues:status': {
    usage: 'queues:status',
    summary: "each queue's waiting, active, delayed and failed job counts",
    help: async () => [
      "Counts each queue's jobs: waiting (ready to run), active (being run), delayed (due later, a retry's back-off",
      'among them) and failed (out of attempts: queues:retry runs them again). The same on Redis (REDIS_URL) and',
      'on the database (no REDIS_URL). With PostgreSQL (DATABASE_URL) the service may keep running meanwhile; in',
      'the embedded mode one process at a time may have the database open, so stop `npm start` first. With',
      'ADMIN_PASSWORD set the service shows the jobs themselves at /admin/queues (docs/operations.md#queues).',
      '',
      `The queues: ${(await queueNames()).join(', ')}.`,
      '',
      'Output: a table on stdout, one line per queue: queue, waiting, active, delayed, failed.',
    ],
  },

  'queues:retry': {
    usage: 'queues:retry <queue>',
    summary: "run a queue's failed jobs again",
    help: async () => [
      'Moves every failed job of <queue> back to waiting, its attempts counted afresh: the workers run each again',
      'as soon as they take it (the service must be running for that). A queue with no failed jobs: nothing to do.',
      '',
      'Arguments:',
      `  <queue>         one of: ${(await queueNames()).join(', ')}`,
      '',
      'An unknown queue: exit 2. Output: one line of JSON on stdout, {"queue":"rotas-notifications","retried":3};',
      'a one-line summary on stderr.',
    ],
    async check([name]) {
      const known = await queueNames();
      if (!known.includes(name!)) throw new UsageError(`unknown queue "${name}"; the queues are: ${known.join(', ')}`);
    },
  },

  'files:to-s3': {
    usage: 'files:to-s3 [data-dir]',
    summary: 'copy the uploaded files of a DATA_DIR into the S3 bucket (S3_BUCKET), for a move to object storage',
    help: lines(
      'Copies every file under <data-dir>/files (uploads and their thumbnails, as the service kept them on disk)',
      'into the bucket S3_BUCKET names, each under the key the records know it by, so the service started with',
      'S3_BUCKET finds them all (docs/operations.md#object-storage). A file the bucket holds already with the same size is',
      'skipped: running it again after a failure finishes the job, and copies nothing twice. Nothing is deleted;',
      'remove the folder yourself once the service serves the files from the bucket.',
      '',
      'Arguments:',
      '  [data-dir]      the DATA_DIR whose files to copy (default: DATA_DIR, as the service reads it)',
      '',
      'S3_BUCKET is required; S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
      'as for the service. No S3_BUCKET, or no files folder in <data-dir>: exit 2. A bucket that cannot be reached: exit 1.',
      '',
      'Output: one line of JSON on stdout, {"copied":12,"skipped":3,"bytes":2048576}; a line per file copied and a',
      'summary on stderr.',
    ),
  },

  'privacy:due': {
    usage: 'privacy:due',
    options: RETENTION_OPTIONS,
    summary: 'who a retention sweep on a date would anonymise (anonymise_users_after), as JSON; writes nothing',
    check: checkRetention,
    help: lines(
      "Lists who a retention sweep on that date would anonymise under their organisation's anonymise_users_after",
      '(N months; "0": nobody of that organisation): users whose last activity (log-in, end of their last booked',
      'shift, change to an expense or claim, registration) was more than N calendar months before, with no shift',
      'that has not ended, not anonymised already (docs/privacy.md#retention). It writes and sends nothing.',
      '',
      ...RETENTION_ARGUMENTS,
      '',
      'Output: one JSON array on stdout, soonest due_on first, ties by user id:',
      '  [{"organisation":"riverside","user_id":5,"email":"alice@riverside.example","last_activity":"2025-01-10",',
      '    "due_on":"2025-07-11"}]',
    ),
  },

  'privacy:sweep': {
    usage: 'privacy:sweep',
    options: RETENTION_OPTIONS,
    summary: "run the retention sweep now, as the worker's daily run does: warnings, then anonymisations",
    check: checkRetention,
    help: lines(
      'Runs the retention sweep as the worker does once a day: each user due (privacy:due) is anonymised, and each',
      'user due within 14 days gets the e-mail "Your account will be anonymised on <date>", once per date (a',
      'later activity moves the date, and the new date gets its own warning). --as-of runs it as if that were the',
      'date: for rehearsals on a copy of the data; on a live service it anonymises early.',
      '',
      ...RETENTION_ARGUMENTS,
      '',
      'Output: one line of JSON on stdout, {"warned":[ids],"anonymised":[ids]}: the users this run warned and',
      'anonymised. A one-line summary on stderr.',
    ),
  },
};

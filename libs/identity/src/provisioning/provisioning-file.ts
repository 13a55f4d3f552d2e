import { z } from 'zod';
import { isValidZone } from '#app/platform';
import { describeProblems, entriesOf, type FilePath, objectAt, type Problem, problemsOf } from './problems.js';
import {
  checkUserEntries,
  emailsOf,
  keySchema as key,
  nameSchema as name,
  takenEmailProblems,
  USER_FIELD_ORDER,
  userEntrySchema,
} from './user-entries.js';

const slugSchema = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, 'must be lower-case letters, digits and dashes');
const settingValue = z.union([z.string(), z.boolean(), z.number(), z.null()]);

export const provisioningFileSchema = z.strictObject({
  organisation: z.strictObject({
    name,
    slug: slugSchema,
    timezone: z.string().refine(isValidZone, 'must be an IANA time zone name, e.g. Europe/London'),
    features: z.array(z.enum(['rota_v2'])).default([]),
    // Checked field by field by the organisation context when it applies them.
    settings: z.record(z.string(), settingValue).default({}),
  }),
  role_profiles: z.array(z.strictObject({ key, name })).default([]),
  categories: z.array(z.strictObject({ key, name })).default([]),
  teams: z
    .array(
      z.strictObject({
        key,
        name,
        parent: key.optional(),
        // The Team object (docs/http-conventions.md#team-object); left out, a team has none, '' and false.
        description: z.string().max(10_000).optional(),
        icon: z.string().max(255).optional(),
        hidden: z.boolean().optional(),
        disabled: z.boolean().optional(),
      }),
    )
    .default([]),
  users: z.array(userEntrySchema).default([]),
});

export type ProvisioningFile = z.infer<typeof provisioningFileSchema>;

/** The order of provisioning.md: problems are listed in it. */
const FIELD_ORDER = [
  'organisation',
  'key',
  'name',
  'slug',
  'timezone',
  'features',
  'settings',
  'role_profiles',
  'categories',
  'teams',
  'parent',
  'description',
  'icon',
  'hidden',
  'disabled',
  'users',
  ...USER_FIELD_ORDER,
];

/** What only the database (and the organisation context) can say about a file. */
export interface ProvisioningFacts {
  /** An organisation has the file's slug already. */
  readonly slugTaken: boolean;
  /** The file's addresses that belong to existing users. */
  readonly takenEmails: ReadonlySet<string>;
  /** The organisation context's verdict on `organisation.settings`, each at its setting. */
  readonly settings: readonly Problem[];
}

const NO_FACTS: ProvisioningFacts = { slugTaken: false, takenEmails: new Set(), settings: [] };

/** What the handler looks up before judging a file (whatever else is wrong with it): the slug, the addresses, the settings. */
export function lookupsOf(input: unknown): {
  slug: string | undefined;
  emails: { email: string; path: FilePath }[];
  settings: Record<string, string | boolean | number | null>;
} {
  const organisation = objectAt(input, 'organisation');
  const slug = slugSchema.safeParse(organisation?.slug);
  // Values of the wrong type are the schema's to report; the organisation context judges the rest.
  const settings = Object.fromEntries(
    Object.entries(objectAt(organisation, 'settings') ?? {}).filter(([, v]) => settingValue.safeParse(v).success),
  ) as Record<string, string | boolean | number | null>;
  const users = input && typeof input === 'object' ? (input as Record<string, unknown>).users : undefined;
  return { slug: slug.success ? slug.data : undefined, emails: emailsOf(users), settings };
}

/**
 * The whole file is judged before anything is written, and every problem is reported in one go:
 * the schema's, the references between entries (checked on the file as given, so a bad entry does
 * not hide the others' problems), and the facts the handler looked up (a slug or an address taken,
 * a setting the organisation context refuses). Each problem names its place in the file and, for
 * list entries, the entry's key.
 */
export function validateProvisioningFile(
  input: unknown,
  facts: ProvisioningFacts = NO_FACTS,
): { file: ProvisioningFile; problems: [] } | { file?: undefined; problems: string[] } {
  const parsed = provisioningFileSchema.safeParse(input);
  const problems = [
    ...(parsed.success ? [] : problemsOf(parsed.error.issues)),
    ...crossReferences(input),
    ...factProblems(input, facts),
  ];
  if (problems.length) return { problems: describeProblems(input, problems, FIELD_ORDER) };
  return { file: parsed.data!, problems: [] };
}

function crossReferences(input: unknown): Problem[] {
  const file = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  const problems: Problem[] = [];
  const keysOf = (section: string) => {
    const seen = new Set<string>();
    for (const [i, entry] of entriesOf(file[section])) {
      if (typeof entry.key !== 'string') continue;
      if (seen.has(entry.key)) problems.push({ path: [section, i, 'key'], message: 'the key is used twice' });
      seen.add(entry.key);
    }
    return seen;
  };
  const roleProfiles = keysOf('role_profiles');
  keysOf('categories');
  const teams = new Set<string>();
  for (const [i, team] of entriesOf(file.teams)) {
    if (typeof team.key === 'string' && teams.has(team.key))
      problems.push({ path: ['teams', i, 'key'], message: 'the key is used twice' });
    if (typeof team.parent === 'string' && !teams.has(team.parent))
      problems.push({ path: ['teams', i, 'parent'], message: `"${team.parent}" is not an earlier team` });
    if (typeof team.key === 'string') teams.add(team.key);
  }
  problems.push(...checkUserEntries(file.users, { teams, roleProfiles }));
  return problems;
}

function factProblems(input: unknown, facts: ProvisioningFacts): Problem[] {
  const { slug, emails } = lookupsOf(input);
  return [
    ...(facts.slugTaken && slug ? [{ path: ['organisation', 'slug'], message: `"${slug}" exists already` }] : []),
    ...facts.settings,
    ...takenEmailProblems(emails, facts.takenEmails),
  ];
}

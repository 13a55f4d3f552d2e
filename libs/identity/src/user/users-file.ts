import { z } from 'zod';
import { describeProblems, type FilePath, objectAt, type Problem, problemsOf } from '../provisioning/problems.js';
import {
  checkUserEntries,
  emailsOf,
  keySchema,
  takenEmailProblems,
  USER_FIELD_ORDER,
  userEntrySchema,
} from '../provisioning/user-entries.js';

const ids = z
  .record(z.string(), z.number().int().positive('must be an id (a positive whole number)'))
  .superRefine((map, ctx) => {
    for (const k of Object.keys(map))
      if (!keySchema.safeParse(k).success)
        ctx.addIssue({
          code: 'custom',
          path: [k],
          message: 'the key must be 1–64 letters, digits, dots, dashes or underscores',
        });
  })
  .default({});

/**
 * The file of `users:add <slug> <file>`: the `users` of a provisioning file, whose roles name
 * teams and role profiles by keys that `teams` and `role_profiles` map to the ids they have (the
 * maps `provision` printed, copied as they are):
 *
 *   { "teams": { "north-shop": 2 }, "role_profiles": { "shop": 1 },
 *     "users": [{ "key": "carol", "email": "carol@x.example", "password": "…", "display_name": "Carol",
 *                 "roles": [{ "team": "north-shop", "role_profile": "shop" }] }] }
 */
export const usersFileSchema = z.strictObject({
  teams: ids,
  role_profiles: ids,
  users: z.array(userEntrySchema).min(1, 'must list at least one user'),
});

export type UsersFile = z.infer<typeof usersFileSchema>;

const FIELD_ORDER = ['teams', 'role_profiles', 'users', ...USER_FIELD_ORDER];

/** What the database says about the file's ids and addresses, for the organisation the users join. */
export interface UsersFileFacts {
  /** The ids among those the file names that are teams of the organisation. */
  readonly teams: ReadonlySet<number>;
  /** The ids among those the file names that are role profiles of the organisation. */
  readonly roleProfiles: ReadonlySet<number>;
  /** The file's addresses that belong to existing users (of any organisation: an address is unique service-wide). */
  readonly takenEmails: ReadonlySet<string>;
}

/** The ids and addresses the handler looks up before judging the file, whatever else is wrong with it. */
export function lookupsOfUsersFile(input: unknown): {
  teams: number[];
  roleProfiles: number[];
  emails: { email: string; path: FilePath }[];
} {
  const idsIn = (section: string) =>
    Object.values(objectAt(input, section) ?? {}).filter(
      (v): v is number => Number.isSafeInteger(v) && (v as number) > 0,
    );
  const users = input && typeof input === 'object' ? (input as Record<string, unknown>).users : undefined;
  return { teams: idsIn('teams'), roleProfiles: idsIn('role_profiles'), emails: emailsOf(users) };
}

/**
 * The whole file judged in one pass, as provisioning judges its files: the schema, the references
 * inside the file, then what the database says (ids that are not the organisation's, addresses
 * taken), every problem named by its place.
 */
export function validateUsersFile(
  input: unknown,
  facts: UsersFileFacts,
): { file: UsersFile; problems: [] } | { file?: undefined; problems: string[] } {
  const parsed = usersFileSchema.safeParse(input);
  const problems: Problem[] = parsed.success ? [] : problemsOf(parsed.error.issues);
  const teams = objectAt(input, 'teams') ?? {};
  const roleProfiles = objectAt(input, 'role_profiles') ?? {};
  const users = input && typeof input === 'object' ? (input as Record<string, unknown>).users : undefined;
  problems.push(
    ...checkUserEntries(users, {
      teams: new Set(Object.keys(teams)),
      roleProfiles: new Set(Object.keys(roleProfiles)),
    }),
  );
  const foreign = (section: string, map: Record<string, unknown>, known: ReadonlySet<number>, what: string) => {
    for (const [k, id] of Object.entries(map)) {
      if (
        keySchema.safeParse(k).success &&
        typeof id === 'number' &&
        Number.isSafeInteger(id) &&
        id > 0 &&
        !known.has(id)
      )
        problems.push({ path: [section, k], message: `${id} is not ${what} of this organisation` });
    }
  };
  foreign('teams', teams, facts.teams, 'a team');
  foreign('role_profiles', roleProfiles, facts.roleProfiles, 'a role profile');
  problems.push(...takenEmailProblems(lookupsOfUsersFile(input).emails, facts.takenEmails));
  if (problems.length) return { problems: describeProblems(input, problems, FIELD_ORDER) };
  return { file: parsed.data!, problems: [] };
}

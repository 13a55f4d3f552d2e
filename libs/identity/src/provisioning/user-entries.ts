import { z } from 'zod';
import { PERMISSIONS, TWO_FACTOR_METHODS, USER_STATUSES } from '../permissions.js';
import { entriesOf, type FilePath, type Problem } from './problems.js';

export const keySchema = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1–64 letters, digits, dots, dashes or underscores');
export const nameSchema = z.string().trim().min(1).max(255);
const emailSchema = z.string().trim().toLowerCase().email();

/** One user of a provisioning file (provisioning.md), also the entries of `users:add`. */
export const userEntrySchema = z.strictObject({
  key: keySchema,
  email: emailSchema,
  password: z.string().min(8, 'must be at least 8 characters').max(1024),
  display_name: nameSchema,
  title: z.string().max(64).optional(),
  status: z.enum(USER_STATUSES).default('active'),
  two_factor: z.enum(TWO_FACTOR_METHODS).nullable().default(null),
  totp_secret: z
    .string()
    .regex(/^[A-Z2-7]{16,}=*$/, 'must be base32 (A–Z, 2–7), at least 16 characters')
    .optional(),
  phone: z
    .string()
    .regex(/^\+?[0-9 ()-]{6,20}$/, 'must be a phone number')
    .optional(),
  permissions: z.array(z.enum(PERMISSIONS)).default([]),
  roles: z.array(z.strictObject({ team: keySchema, role_profile: keySchema })).default([]),
});

export type UserEntry = z.infer<typeof userEntrySchema>;

/** The order the documentation lists a user's fields in: problems are reported in it. */
export const USER_FIELD_ORDER = [
  'key',
  'email',
  'password',
  'display_name',
  'title',
  'status',
  'two_factor',
  'totp_secret',
  'phone',
  'permissions',
  'roles',
  'team',
  'role_profile',
];

/** A user entry's e-mail address as it will be stored, when it is one. */
export function emailOf(entry: Record<string, unknown>): string | undefined {
  const parsed = emailSchema.safeParse(entry.email);
  return parsed.success ? parsed.data : undefined;
}

/** The addresses of a `users` list with where they are, for the check against existing users. */
export function emailsOf(users: unknown, at: FilePath = ['users']): { email: string; path: FilePath }[] {
  return entriesOf(users).flatMap(([i, u]) => {
    const email = emailOf(u);
    return email ? [{ email, path: [...at, i, 'email'] }] : [];
  });
}

/**
 * What no single entry's schema can see, checked on the list as given (whether or not every entry
 * passed its schema, so one run reports everything): keys and addresses used twice, a second
 * factor without its data, roles naming a team or role profile the file does not define. Values
 * of the wrong type are the schema's to report; these checks skip them.
 */
export function checkUserEntries(
  users: unknown,
  refs: { teams: ReadonlySet<string>; roleProfiles: ReadonlySet<string> },
  at: FilePath = ['users'],
): Problem[] {
  const problems: Problem[] = [];
  const keys = new Set<string>();
  const emails = new Set<string>();
  for (const [i, user] of entriesOf(users)) {
    const here = (...path: (string | number)[]) => [...at, i, ...path];
    if (typeof user.key === 'string') {
      if (keys.has(user.key)) problems.push({ path: here('key'), message: 'the key is used twice' });
      keys.add(user.key);
    }
    const email = emailOf(user);
    if (email) {
      if (emails.has(email)) problems.push({ path: here('email'), message: `${email} is used twice` });
      emails.add(email);
    }
    if (user.two_factor === 'auth_app' && user.totp_secret === undefined)
      problems.push({ path: here('totp_secret'), message: 'two_factor auth_app needs a totp_secret' });
    if (user.two_factor === 'sms' && user.phone === undefined)
      problems.push({ path: here('phone'), message: 'two_factor sms needs a phone' });
    for (const [j, role] of entriesOf(user.roles)) {
      if (typeof role.team === 'string' && !refs.teams.has(role.team))
        problems.push({ path: here('roles', j, 'team'), message: `unknown team "${role.team}"` });
      if (typeof role.role_profile === 'string' && !refs.roleProfiles.has(role.role_profile)) {
        problems.push({
          path: here('roles', j, 'role_profile'),
          message: `unknown role_profile "${role.role_profile}"`,
        });
      }
    }
  }
  return problems;
}

/** Addresses that belong to users already: one problem each, at the entry that names it. */
export function takenEmailProblems(
  emails: readonly { email: string; path: FilePath }[],
  taken: ReadonlySet<string>,
): Problem[] {
  return emails
    .filter((e) => taken.has(e.email))
    .map((e) => ({ path: e.path, message: `${e.email} belongs to an existing user` }));
}

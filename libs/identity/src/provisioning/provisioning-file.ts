import { z } from 'zod';
import { isValidZone } from '#app/platform';
import { PERMISSIONS, TWO_FACTOR_METHODS, USER_STATUSES } from '../permissions.js';

const key = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1–64 letters, digits, dots, dashes or underscores');
const name = z.string().trim().min(1).max(255);

export const provisioningFileSchema = z.strictObject({
  organisation: z.strictObject({
    name,
    slug: z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, 'must be lower-case letters, digits and dashes'),
    timezone: z.string().refine(isValidZone, 'must be an IANA time zone name, e.g. Europe/London'),
    features: z.array(z.enum(['rota_v2'])).default([]),
    // Checked field by field by the organisation context when it applies them.
    settings: z.record(z.string(), z.union([z.string(), z.boolean(), z.number(), z.null()])).default({}),
  }),
  role_profiles: z.array(z.strictObject({ key, name })).default([]),
  categories: z.array(z.strictObject({ key, name })).default([]),
  teams: z.array(z.strictObject({ key, name, parent: key.optional() })).default([]),
  users: z
    .array(
      z.strictObject({
        key,
        email: z.string().trim().toLowerCase().email(),
        password: z.string().min(8, 'must be at least 8 characters').max(1024),
        display_name: name,
        title: z.string().max(64).optional(),
        status: z.enum(USER_STATUSES).default('active'),
        two_factor: z.enum(TWO_FACTOR_METHODS).nullable().default(null),
        totp_secret: z.string().regex(/^[A-Z2-7]{16,}=*$/, 'must be base32 (A–Z, 2–7), at least 16 characters').optional(),
        phone: z.string().regex(/^\+?[0-9 ()-]{6,20}$/, 'must be a phone number').optional(),
        permissions: z.array(z.enum(PERMISSIONS)).default([]),
        roles: z.array(z.strictObject({ team: key, role_profile: key })).default([]),
      }),
    )
    .default([]),
});

export type ProvisioningFile = z.infer<typeof provisioningFileSchema>;

/**
 * The whole file is checked before anything is written; every problem is named by its place in
 * the file and, for list entries, by its key, so an administrator fixes them all in one go.
 */
export function validateProvisioningFile(input: unknown): { file: ProvisioningFile; problems: [] } | { file?: undefined; problems: string[] } {
  const parsed = provisioningFileSchema.safeParse(input);
  if (!parsed.success) return { problems: parsed.error.issues.map((i) => `${where(input, i.path)}: ${i.message}`) };
  const problems = crossReferences(parsed.data);
  return problems.length ? { problems } : { file: parsed.data, problems: [] };
}

function where(input: unknown, path: PropertyKey[]): string {
  let label = '';
  let node: unknown = input;
  for (const step of path) {
    node = node && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[step] : undefined;
    if (typeof step === 'number') {
      const k = node && typeof node === 'object' ? (node as { key?: unknown }).key : undefined;
      label += `[${step}]${typeof k === 'string' ? ` "${k}"` : ''}`;
    } else label += `${label ? '.' : ''}${String(step)}`;
  }
  return label || '(file)';
}

function crossReferences(file: ProvisioningFile): string[] {
  const problems: string[] = [];
  const duplicates = (list: { key: string }[], what: string) => {
    const seen = new Set<string>();
    for (const [i, { key: k }] of list.entries()) {
      if (seen.has(k)) problems.push(`${what}[${i}] "${k}": the key is used twice`);
      seen.add(k);
    }
    return seen;
  };
  const profiles = duplicates(file.role_profiles, 'role_profiles');
  duplicates(file.categories, 'categories');
  const teams = new Set<string>();
  for (const [i, team] of file.teams.entries()) {
    if (teams.has(team.key)) problems.push(`teams[${i}] "${team.key}": the key is used twice`);
    if (team.parent !== undefined && !teams.has(team.parent)) problems.push(`teams[${i}] "${team.key}": parent "${team.parent}" is not an earlier team`);
    teams.add(team.key);
  }
  duplicates(file.users, 'users');
  const emails = new Set<string>();
  for (const [i, user] of file.users.entries()) {
    const at = `users[${i}] "${user.key}"`;
    if (emails.has(user.email)) problems.push(`${at}: e-mail ${user.email} is used twice`);
    emails.add(user.email);
    if (user.two_factor === 'auth_app' && !user.totp_secret) problems.push(`${at}: two_factor auth_app needs a totp_secret`);
    if (user.two_factor === 'sms' && !user.phone) problems.push(`${at}: two_factor sms needs a phone`);
    for (const [j, role] of user.roles.entries()) {
      if (!teams.has(role.team)) problems.push(`${at}.roles[${j}]: unknown team "${role.team}"`);
      if (!profiles.has(role.role_profile)) problems.push(`${at}.roles[${j}]: unknown role_profile "${role.role_profile}"`);
    }
  }
  return problems;
}

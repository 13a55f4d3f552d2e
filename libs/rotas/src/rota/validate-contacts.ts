import { type Refusal, refusal, requiredMessage, throwIfRefused } from '../domain/refusals.js';
import { ROTA_PERMISSIONS } from '../rotas.policy.js';

/**
 * `POST /api/rotas/contacts/validate` (docs/rota-domain.md#contacts; advisory, writes nothing): for each
 * user, the targets (rotas, or teams with `team_ids`) the user cannot see, and whether the user
 * holds neither add-user-shifts nor manage-rotas. A user is a failure when either holds.
 *
 * Decisions where the docs are silent (also in the route's OpenAPI description):
 * - the targets must be rotas or teams the caller's manage-rotas reaches (as in bulk and replace):
 *   another organisation's, unknown and out-of-reach ids are all "unknown", a 422 naming the field
 *   and listing them once each; archived rotas are valid targets;
 * - a rota is seen when its team is (the user holds a role in it or above it);
 * - `rota_ids` or `team_ids` null is the same as absent; an empty list counts as given (and has no
 *   targets); `user_ids` may be empty (then the answer is valid);
 * - failures and their `unseen_targets` follow the order sent, each id once.
 */

export const VALIDATE_LIMITS = { user_ids: 50, rota_ids: 500, team_ids: 100 } as const;

export interface ValidateContactsInput {
  readonly userIds: readonly number[];
  readonly rotaIds?: readonly number[] | null;
  readonly teamIds?: readonly number[] | null;
}

/** What the reads found, all within the caller's organisation. */
export interface ValidateContactsFacts {
  /** Display names of the users among `userIds` that are users of the organisation. */
  readonly users: ReadonlyMap<number, string>;
  /** The permissions each such user holds. */
  readonly permissions: ReadonlyMap<number, ReadonlySet<string>>;
  /** The teams each such user sees. */
  readonly seen: ReadonlyMap<number, ReadonlySet<number>>;
  /** The targets among the ids sent that the caller manages: id → name and the team that decides whether it is seen. */
  readonly targets: ReadonlyMap<number, { readonly name: string; readonly teamId: number }>;
}

export interface ContactFailure {
  user_id: number;
  display_name: string;
  missing_permission: boolean;
  unseen_targets: { id: number; name: string }[];
}

export interface ContactValidation {
  valid: boolean;
  failures: ContactFailure[];
}

/** Which list the targets come from: `rota_ids` or `team_ids`, exactly one of them (else a 422 naming both). */
export function targetField(input: Pick<ValidateContactsInput, 'rotaIds' | 'teamIds'>): 'rota_ids' | 'team_ids' {
  const rotas = input.rotaIds !== undefined && input.rotaIds !== null;
  const teams = input.teamIds !== undefined && input.teamIds !== null;
  if (rotas === teams) {
    const message = rotas
      ? 'Give exactly one of rota_ids and team_ids, not both.'
      : 'Give exactly one of rota_ids and team_ids.';
    throwIfRefused([refusal('rota_ids', message), refusal('team_ids', message)]);
  }
  return rotas ? 'rota_ids' : 'team_ids';
}

/** The lists' limits (counted as sent) and their unknown ids (each once). */
function listRefusals(
  field: keyof typeof VALIDATE_LIMITS,
  ids: readonly number[] | undefined,
  known: (id: number) => boolean,
  what: string,
): Refusal[] {
  if (ids === undefined) return [refusal(field, requiredMessage(field))];
  const limit = VALIDATE_LIMITS[field];
  if (ids.length > limit) return [refusal(field, `The ${field} field must not have more than ${limit} items.`)];
  const unknown = [...new Set(ids)].filter((id) => !known(id));
  return unknown.length ? [refusal(field, `The ${field} field lists ${what}: ${unknown.join(', ')}.`)] : [];
}

/** Checks the body against what the reads found; a 422 names every bad list at once. */
export function checkValidateContacts(
  input: ValidateContactsInput,
  facts: ValidateContactsFacts,
): 'rota_ids' | 'team_ids' {
  const field = targetField(input);
  const targets = (field === 'rota_ids' ? input.rotaIds : input.teamIds) ?? undefined;
  throwIfRefused([
    ...listRefusals(
      'user_ids',
      input.userIds,
      (id) => facts.users.has(id),
      'users who are not users of this organisation',
    ),
    ...listRefusals(
      field,
      targets,
      (id) => facts.targets.has(id),
      `${field === 'rota_ids' ? 'rotas' : 'teams'} that are unknown or that you do not manage (manage-rotas)`,
    ),
  ]);
  return field;
}

/** Holds add-user-shifts or manage-rotas (anywhere: a permission applies over the holder's own teams). */
const mayBeContact = (permissions: ReadonlySet<string> | undefined) =>
  !!permissions && (permissions.has(ROTA_PERMISSIONS.addUserShifts) || permissions.has(ROTA_PERMISSIONS.manage));

/** The answer: each user who cannot see some target or lacks both permissions, with those targets. */
export function validateContacts(input: ValidateContactsInput, facts: ValidateContactsFacts): ContactValidation {
  const field = checkValidateContacts(input, facts);
  const targetIds = [...new Set((field === 'rota_ids' ? input.rotaIds : input.teamIds) ?? [])];
  const failures = [...new Set(input.userIds)].flatMap((userId): ContactFailure[] => {
    const seen = facts.seen.get(userId) ?? new Set<number>();
    const unseen = targetIds.flatMap((id) => {
      const target = facts.targets.get(id)!;
      return seen.has(target.teamId) ? [] : [{ id, name: target.name }];
    });
    const missing = !mayBeContact(facts.permissions.get(userId));
    return unseen.length || missing
      ? [
          {
            user_id: userId,
            display_name: facts.users.get(userId)!,
            missing_permission: missing,
            unseen_targets: unseen,
          },
        ]
      : [];
  });
  return { valid: failures.length === 0, failures };
}

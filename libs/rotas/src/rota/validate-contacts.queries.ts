import { Injectable } from '@nestjs/common';
import { type Caller, Teams, UserBases } from '#app/identity';
import { RotasPolicy } from '../rotas.policy.js';
import { ContactQueries } from './contacts.queries.js';
import {
  type ContactValidation,
  targetField,
  VALIDATE_LIMITS,
  validateContacts,
  type ValidateContactsFacts,
  type ValidateContactsInput,
} from './validate-contacts.js';

/**
 * `POST /api/rotas/contacts/validate`: reads what the pure check needs (the caller's reach, the
 * users' names, permissions and seen teams, the targets' names and teams), each once for all ids,
 * and answers validateContacts. Writes nothing.
 */
@Injectable()
export class ValidateContactsQuery {
  constructor(
    private readonly policy: RotasPolicy,
    private readonly contacts: ContactQueries,
    private readonly teams: Teams,
    private readonly users: UserBases,
  ) {}

  async run(caller: Caller, input: ValidateContactsInput): Promise<ContactValidation> {
    this.policy.requireManageRotas(caller);
    const field = targetField(input);
    // A list over its limit is refused whatever it holds: it is not looked up.
    const within = (ids: readonly number[] | null | undefined, limit: number) =>
      ids && ids.length <= limit ? [...new Set(ids)] : [];
    const userIds = within(input.userIds, VALIDATE_LIMITS.user_ids);
    const targetIds = within(field === 'rota_ids' ? input.rotaIds : input.teamIds, VALIDATE_LIMITS[field]);
    const [reach, names, permissions, seen, targets] = await Promise.all([
      this.policy.reach(caller),
      this.users.displayNames(caller, userIds),
      this.teams.permissionsOf(caller, userIds),
      this.teams.seenByEach(caller, userIds),
      field === 'rota_ids' ? this.rotaTargets(caller, targetIds) : this.teamTargets(caller, targetIds),
    ]);
    const managed = new Map([...targets].filter(([, t]) => reach.manages.has(t.teamId)));
    const facts: ValidateContactsFacts = { users: names, permissions, seen, targets: managed };
    return validateContacts(input, facts);
  }

  private async rotaTargets(
    caller: Caller,
    ids: readonly number[],
  ): Promise<Map<number, { name: string; teamId: number }>> {
    const rotas = await this.contacts.rotas(caller, ids);
    return new Map([...rotas].map(([id, r]) => [id, { name: r.name, teamId: r.teamId }]));
  }

  private async teamTargets(
    caller: Caller,
    ids: readonly number[],
  ): Promise<Map<number, { name: string; teamId: number }>> {
    const teams = await this.teams.objects(caller, ids);
    return new Map([...teams].map(([id, t]) => [id, { name: t.name, teamId: id }]));
  }
}

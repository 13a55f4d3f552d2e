import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Caller, type UserBase, UserBases } from '#app/identity';
import { NotFoundError, type Tenant, tenantScope, tenantSql } from '#app/platform';
import { RotasPolicy } from '../rotas.policy.js';

/** A rota as the contact routes check it (its team decides who sees and manages it). */
export interface RotaRef {
  readonly id: number;
  readonly teamId: number;
  readonly name: string;
  readonly archived: boolean;
}

/** The Rota contact (docs/rota-domain.md#record-shapes; http/contact.responses.ts documents it). */
export interface ContactView {
  id: number;
  user_id: number;
  user: UserBase;
}

/**
 * Reads of the `rotas` and `rota_contacts` tables for the contact routes, bulk add_contacts and
 * contact validation (tenant-scoped). UserBases come from identity; `can_manage` is judged through
 * any permission the caller holds (as the rota policy's reach).
 */
@Injectable()
export class ContactQueries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UserBases,
    private readonly policy: RotasPolicy,
  ) {}

  /** One rota of the tenant's organisation, or null (unknown, or another organisation's). */
  async rota(tenant: Tenant, id: number): Promise<RotaRef | null> {
    return (await this.rotas(tenant, [id])).get(id) ?? null;
  }

  /** The rotas of `ids` in the tenant's organisation (others are simply absent), keyed by id. */
  async rotas(tenant: Tenant, ids: readonly number[]): Promise<Map<number, RotaRef>> {
    if (ids.length === 0) return new Map();
    const q = tenantSql(
      tenant,
    )`SELECT id, team_id, name, archived FROM rotas WHERE ${tenantScope()} AND id = ANY(${ids}::bigint[])`;
    const rows: { id: string; team_id: string; name: string; archived: boolean }[] = await this.dataSource.query(
      q.text,
      q.values,
    );
    return new Map(
      rows.map((r) => [
        Number(r.id),
        { id: Number(r.id), teamId: Number(r.team_id), name: r.name, archived: r.archived },
      ]),
    );
  }

  /** `GET /api/rotas/{rota}/contacts`: anyone who sees the rota (404 unknown or another organisation's, 403 hidden). By contact id. */
  async list(caller: Caller, rotaId: number): Promise<ContactView[]> {
    this.policy.assertSees(await this.policy.reach(caller), await this.rota(caller, rotaId));
    return (await this.ofRotas(caller, [rotaId])).get(rotaId) ?? [];
  }

  /** The contacts of each of `rotaIds` (by contact id), in two queries for all of them (the rota list's `contacts` include too). */
  async ofRotas(caller: Caller, rotaIds: readonly number[]): Promise<Map<number, ContactView[]>> {
    const byRota = new Map<number, ContactView[]>();
    if (rotaIds.length === 0) return byRota;
    const q = tenantSql(
      caller,
    )`SELECT id, rota_id, user_id FROM rota_contacts WHERE ${tenantScope()} AND rota_id = ANY(${rotaIds}::bigint[]) ORDER BY id`;
    const rows: { id: string; rota_id: string; user_id: string }[] = await this.dataSource.query(q.text, q.values);
    const contacts = await this.withUsers(caller, rows);
    const rotaOf = new Map(rows.map((r) => [Number(r.id), Number(r.rota_id)]));
    for (const contact of contacts) {
      const rotaId = rotaOf.get(contact.id)!;
      (byRota.get(rotaId) ?? byRota.set(rotaId, []).get(rotaId)!).push(contact);
    }
    return byRota;
  }

  /** One contact record of the rota (after a write: the projection ran inline). */
  async get(caller: Caller, rotaId: number, contactId: number): Promise<ContactView> {
    const q = tenantSql(
      caller,
    )`SELECT id, user_id FROM rota_contacts WHERE ${tenantScope()} AND rota_id = ${rotaId} AND id = ${contactId}`;
    const [contact] = await this.withUsers(caller, await this.dataSource.query(q.text, q.values));
    if (!contact) throw new NotFoundError('Contact');
    return contact;
  }

  /** How many of the pairs (rota, user) are contacts already: bulk add_contacts draws ids for the rest. */
  async existingPairs(tenant: Tenant, rotaIds: readonly number[], userIds: readonly number[]): Promise<number> {
    if (rotaIds.length === 0 || userIds.length === 0) return 0;
    const q = tenantSql(tenant)`SELECT count(*)::int AS n FROM rota_contacts
        WHERE ${tenantScope()} AND rota_id = ANY(${rotaIds}::bigint[]) AND user_id = ANY(${userIds}::bigint[])`;
    const [{ n }]: { n: number }[] = await this.dataSource.query(q.text, q.values);
    return n;
  }

  /** Contacts with their UserBase, one query for all; a contact whose user identity no longer knows is left out. */
  private async withUsers(caller: Caller, rows: readonly { id: string; user_id: string }[]): Promise<ContactView[]> {
    const users = await this.users.of(caller, [...new Set(rows.map((r) => Number(r.user_id)))], 'any');
    return rows.flatMap((r) => {
      const user = users.get(Number(r.user_id));
      return user ? [{ id: Number(r.id), user_id: user.id, user }] : [];
    });
  }
}

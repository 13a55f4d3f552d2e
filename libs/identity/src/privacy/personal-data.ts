import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { tenantScope, tenantSql } from '#app/platform';
import type { Caller } from '../auth/caller.js';
import { type UserBase, userStatusOf } from '../hierarchy/user-base.js';

/** The user's own record in a personal-data export (docs/privacy.md#access-and-portability): no secret. */
export interface PersonalUserView {
  id: number;
  email: string | null;
  display_name: string;
  title: string | null;
  phone: string | null;
  status: UserBase['status'];
  /** The second-factor method (`email`, `sms`, `auth_app`, `magic_link`), never its secret; null for none. */
  two_factor: string | null;
  created_at: string;
}

/** What identity holds of one user, for the export: the user, their roles, their log-ins. */
export interface IdentityPersonalData {
  user: PersonalUserView;
  roles: { team: { id: number; name: string }; role_profile: { id: number; name: string } }[];
  /** One per session started (a log-in); refreshes are the same session. No address or agent is kept. */
  logins: { at: string }[];
}

/** A user an operator names by e-mail address (any case) or id, service-wide. */
export interface LocatedUser {
  readonly id: number;
  readonly organisationId: number;
}

/**
 * Identity's part of a personal-data export, read from identity's own tables. The password hash,
 * the TOTP secret and the permissions are not read.
 */
@Injectable()
export class PersonalDataOfUsers {
  constructor(private readonly dataSource: DataSource) {}

  /** The user's data in the tenant's organisation, or null when it has no such user. */
  async of(tenant: Pick<Caller, 'organisationId'>, userId: number): Promise<IdentityPersonalData | null> {
    const u = tenantSql(tenant)`SELECT u.id, u.email, u.display_name, u.title, u.phone, u.status, u.two_factor,
        u.created_at FROM users u WHERE ${tenantScope('u')} AND u.id = ${userId}`;
    const [row]: {
      id: string;
      email: string | null;
      display_name: string;
      title: string | null;
      phone: string | null;
      status: string;
      two_factor: string | null;
      created_at: Date;
    }[] = await this.dataSource.query(u.text, u.values);
    if (!row) return null;
    const r = tenantSql(
      tenant,
    )`SELECT t.id AS team_id, t.name AS team_name, rp.id AS profile_id, rp.name AS profile_name
         FROM roles r JOIN teams t ON t.id = r.team_id JOIN role_profiles rp ON rp.id = r.role_profile_id
        WHERE ${tenantScope('r')} AND r.user_id = ${userId} ORDER BY r.position, r.id`;
    const roles: { team_id: string; team_name: string; profile_id: string; profile_name: string }[] =
      await this.dataSource.query(r.text, r.values);
    const s = tenantSql(
      tenant,
    )`SELECT s.issued_at FROM sessions s WHERE ${tenantScope('s')} AND s.user_id = ${userId} ORDER BY s.issued_at, s.id`;
    const sessions: { issued_at: Date }[] = await this.dataSource.query(s.text, s.values);
    return {
      user: {
        id: Number(row.id),
        email: row.email,
        display_name: row.display_name,
        title: row.title,
        phone: row.phone,
        status: userStatusOf(row.status),
        two_factor: row.two_factor,
        created_at: row.created_at.toISOString(),
      },
      roles: roles.map((x) => ({
        team: { id: Number(x.team_id), name: x.team_name },
        role_profile: { id: Number(x.profile_id), name: x.profile_name },
      })),
      logins: sessions.map((x) => ({ at: x.issued_at.toISOString() })),
    };
  }

  /** The user an operator names: an id (digits) or an e-mail address (any case), or null. */
  async locate(reference: string): Promise<LocatedUser | null> {
    const ref = reference.trim();
    const byId = /^[1-9]\d{0,17}$/.test(ref);
    const [row]: { id: string; organisation_id: string }[] = await this.dataSource.query(
      byId
        ? `SELECT id, organisation_id FROM users WHERE id = $1::bigint`
        : `SELECT id, organisation_id FROM users WHERE lower(email) = lower($1)`,
      [ref],
    );
    return row ? { id: Number(row.id), organisationId: Number(row.organisation_id) } : null;
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OrganisationFactsReader, Teams } from '#app/identity';
import { type Tenant, tenantScope, tenantSql } from '#app/platform';
import { CalendarUidDomain } from '../notifications/calendar-uid-domain.js';
import { type CalendarShift, shiftCalendar } from '../notifications/shift-calendar.js';
import { feedEtag, feedTokenHash, feedWindow, isFeedToken } from './calendar-feed.js';

/** A feed as the route answers it: the iCalendar text and its ETag. */
export interface CalendarFeed {
  readonly body: string;
  readonly etag: string;
}

type ShiftRow = {
  id: string;
  team_id: string;
  rota_name: string;
  starts_at: Date;
  ends_at: Date;
  sequence: number;
  updated_at: Date;
};

/**
 * `GET /calendar/{token}.ics`. Four reads, none per shift: the feed's owner by the token's hash,
 * the organisation's zone and today, the owner's booked shifts in the window with their rotas'
 * names (one statement), and their teams.
 */
@Injectable()
export class CalendarFeedQueries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly organisations: OrganisationFactsReader,
    private readonly teams: Teams,
    // The UIDs' host, as the notification e-mails make them (shiftUid): a client that took a
    // shift from an invitation and from the feed sees one event.
    private readonly uidDomain: CalendarUidDomain,
  ) {}

  /** When the user's live feed was issued (a personal-data export: the token itself is never read out). */
  async issuedFor(tenant: Tenant, userId: number): Promise<{ created_at: string }[]> {
    const q = tenantSql(
      tenant,
    )`SELECT issued_at FROM rota_calendar_feeds WHERE ${tenantScope()} AND user_id = ${userId} ORDER BY issued_at`;
    const rows: { issued_at: Date }[] = await this.dataSource.query(q.text, q.values);
    return rows.map((r) => ({ created_at: r.issued_at.toISOString() }));
  }

  /** The feed a token opens, or null for a malformed, unknown or revoked one (the route's 404). */
  async feed(token: string): Promise<CalendarFeed | null> {
    if (!isFeedToken(token)) return null;
    const owner = await this.owner(feedTokenHash(token));
    if (!owner) return null;
    const { timezone: zone, today } = await this.organisations.of(owner);
    const rows = await this.shifts(owner, owner.userId, feedWindow(today));
    const teams = await this.teams.objects(owner, [...new Set(rows.map((r) => Number(r.team_id)))]);
    const shifts: CalendarShift[] = rows.map((r) => ({
      id: Number(r.id),
      organisationId: owner.organisationId,
      rotaName: r.rota_name,
      teamName: teams.get(Number(r.team_id))?.name ?? '',
      start: r.starts_at,
      end: r.ends_at,
      zone,
      sequence: r.sequence,
      status: 'booked',
    }));
    // DTSTAMP of a feed (no METHOD) is when the information was last revised (RFC 5545 3.8.7.2):
    // the latest change among its shifts, not the clock, so the same shifts give the same bytes
    // and the ETag (a hash of them) stays put between polls.
    const revised = new Date(Math.max(0, ...rows.map((r) => r.updated_at.getTime())));
    const host = await this.uidDomain.get();
    const body = shiftCalendar({ method: null, shifts, host, now: revised, name: 'Shifts' });
    return { body, etag: feedEtag(body) };
  }

  /**
   * The live feed with this token hash. Not tenant-scoped: the token is what identifies the
   * organisation here (no caller), as a signed file URL does.
   */
  private async owner(tokenHash: string): Promise<(Tenant & { userId: number }) | null> {
    const rows: { user_id: string; organisation_id: string }[] = await this.dataSource.query(
      `SELECT user_id, organisation_id FROM rota_calendar_feeds WHERE token_hash = $1`,
      [tokenHash],
    );
    const row = rows[0];
    return row ? { userId: Number(row.user_id), organisationId: Number(row.organisation_id) } : null;
  }

  /** The user's booked shifts starting on a local date in the window, by start then id (a stable order: stable bytes). */
  private async shifts(tenant: Tenant, userId: number, window: { from: string; to: string }): Promise<ShiftRow[]> {
    const q = tenantSql(
      tenant,
    )`SELECT s.id, s.team_id, r.name AS rota_name, s.starts_at, s.ends_at, s.sequence, s.updated_at
      FROM rota_shifts s JOIN rotas r ON r.id = s.rota_id AND ${tenantScope('r')}
      WHERE ${tenantScope('s')} AND s.user_id = ${userId} AND s.status = 'booked' AND s.date BETWEEN ${window.from}::date AND ${window.to}::date
      ORDER BY s.starts_at, s.id`;
    return this.dataSource.query(q.text, q.values);
  }
}

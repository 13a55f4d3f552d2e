import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { offsetOf, type PageRequest, sql, type Tenant, tenantScope, tenantSql } from '#app/platform';
import { PING } from '../event-types.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];

/** The Delivery record (docs/webhooks.md#deliveries). */
export interface DeliveryView {
  id: string;
  event_type: string;
  created_at: string;
  status: DeliveryStatus;
  attempts: number;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  response_status: number | null;
}

/** A delivery as the sender takes it. */
export interface DueDelivery {
  id: string;
  organisationId: number;
  endpointId: number;
  eventType: string;
  body: string;
  attempts: number;
}

export interface NewDelivery {
  /** Given for a ping; an event's delivery id is derived from the event and the endpoint. */
  id?: string;
  organisationId: number;
  endpointId: number;
  eventId: string | null;
  eventType: string;
  body: string;
}

/** The webhook-id of an event's delivery to an endpoint: the same however often the event is fanned out. */
export function deliveryId(eventId: string, endpointId: number): string {
  return `msg_${createHash('sha256').update(`${eventId}:${endpointId}`).digest('base64url').slice(0, 27)}`;
}

export function pingDeliveryId(): string {
  return `msg_${randomBytes(20).toString('base64url').slice(0, 27)}`;
}

/**
 * A pending delivery `d` that may be sent now: a disabled endpoint gets nothing but pings, so what
 * it is owed waits, unattempted, until it is enabled again (docs/webhooks.md#delivery). A deleted
 * endpoint's stray delivery is taken, and fails (the sender finds no endpoint).
 */
const SENDABLE = `(d.event_type = '${PING}' OR NOT EXISTS
  (SELECT 1 FROM webhook_endpoints e WHERE e.id = d.endpoint_id AND NOT e.enabled))`;

const VIEW = `id, event_type, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at, status, attempts,
  to_char(last_attempt_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS last_attempt_at,
  to_char(next_attempt_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS next_attempt_at, response_status`;

/**
 * The record of what is owed to each endpoint (webhook_deliveries; docs/webhooks.md#delivery).
 * A delivery being attempted holds a lease (`lease_until`) so no second sender takes it; a sender
 * that dies leaves the lease to run out, and the sweep offers the delivery again.
 */
@Injectable()
export class Deliveries {
  constructor(private readonly dataSource: DataSource) {}

  /** Adds deliveries, due now; one already there for the same endpoint and event is left as it is. */
  async add(rows: readonly NewDelivery[]): Promise<void> {
    if (rows.length === 0) return;
    await this.dataSource.query(
      `INSERT INTO webhook_deliveries (id, organisation_id, endpoint_id, event_id, event_type, body, status, next_attempt_at, user_ids)
       SELECT d.id, d.organisation_id, d.endpoint_id, d.event_id, d.event_type, d.body, 'pending', now(),
              ARRAY(SELECT jsonb_array_elements_text(d.user_ids)::bigint)
         FROM jsonb_to_recordset($1::jsonb)
           AS d(id text, organisation_id bigint, endpoint_id bigint, event_id uuid, event_type text, body text, user_ids jsonb)
       ON CONFLICT DO NOTHING`,
      [
        JSON.stringify(
          rows.map((r) => ({
            id: r.id ?? (r.eventId ? deliveryId(r.eventId, r.endpointId) : pingDeliveryId()),
            organisation_id: r.organisationId,
            endpoint_id: r.endpointId,
            event_id: r.eventId,
            event_type: r.eventType,
            body: r.body,
            user_ids: usersNamedIn(r.body),
          })),
        ),
      ],
    );
  }

  /**
   * Takes up to `cap` less those in flight of the endpoint's due deliveries, oldest due first,
   * under a lease of `leaseMs`: at most `cap` attempts to one endpoint at a time, however many
   * senders ask (the endpoint's advisory lock orders the asking).
   */
  async claim(endpointId: number, cap: number, leaseMs: number): Promise<DueDelivery[]> {
    return this.dataSource.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('webhooks.endpoint:' || $1::text, 0))`, [
        endpointId,
      ]);
      const rows: {
        id: string;
        organisation_id: string;
        endpoint_id: string;
        event_type: string;
        body: string;
        attempts: number;
      }[] = await tx.query(
        `WITH in_flight AS (
           SELECT count(*)::int AS n FROM webhook_deliveries
            WHERE endpoint_id = $1 AND status = 'pending' AND lease_until > now()),
         -- In a CTE, so the driver answers the rows (an UPDATE's own answer is [rows, count]).
         claimed AS (
         UPDATE webhook_deliveries w SET lease_until = now() + make_interval(secs => $3::float8 / 1000)
          WHERE w.id IN (
            SELECT id FROM webhook_deliveries d
             WHERE endpoint_id = $1 AND status = 'pending' AND next_attempt_at <= now()
               AND (lease_until IS NULL OR lease_until <= now()) AND ${SENDABLE}
             ORDER BY next_attempt_at, created_at, id
             LIMIT GREATEST(0, $2 - (SELECT n FROM in_flight)))
         RETURNING w.id, w.organisation_id, w.endpoint_id, w.event_type, w.body, w.attempts)
         SELECT * FROM claimed`,
        [endpointId, cap, leaseMs],
      );
      return rows.map((r) => ({
        id: r.id,
        organisationId: Number(r.organisation_id),
        endpointId: Number(r.endpoint_id),
        eventType: r.event_type,
        body: r.body,
        attempts: r.attempts,
      }));
    });
  }

  /** The outcome of the attempt that started at `startedAt`: delivered, retried at `retryAt`, or failed for good. */
  async recordAttempt(
    id: string,
    startedAt: Date,
    outcome: { status: number | null; delivered: boolean; retryAt: Date | null },
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, last_attempt_at = $5, response_status = $2,
         status = $3, next_attempt_at = $4, lease_until = NULL
       WHERE id = $1 AND status = 'pending'`,
      [
        id,
        outcome.status,
        outcome.delivered ? 'delivered' : outcome.retryAt ? 'pending' : 'failed',
        outcome.delivered ? null : outcome.retryAt,
        startedAt,
      ],
    );
  }

  /** An attempt cut short by a shutdown: no attempt counted, offered again at once. */
  async release(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.dataSource.query(`UPDATE webhook_deliveries SET lease_until = NULL WHERE id = ANY($1::text[])`, [ids]);
  }

  /** The endpoint's earliest next attempt among pending deliveries it may be sent, or null. */
  async nextDue(endpointId: number): Promise<Date | null> {
    const [row]: { at: Date | null }[] = await this.dataSource.query(
      `SELECT min(GREATEST(next_attempt_at, COALESCE(lease_until, next_attempt_at))) AS at
         FROM webhook_deliveries d WHERE endpoint_id = $1 AND status = 'pending' AND ${SENDABLE}`,
      [endpointId],
    );
    return row?.at ? new Date(row.at) : null;
  }

  /** Endpoints (of every organisation) with a delivery due and not in flight: what the sweep offers again. */
  async endpointsDue(limit = 1_000): Promise<number[]> {
    const rows: { endpoint_id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT endpoint_id FROM webhook_deliveries d
        WHERE status = 'pending' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until <= now())
          AND ${SENDABLE}
        LIMIT $1`,
      [limit],
    );
    return rows.map((r) => Number(r.endpoint_id));
  }

  /** `GET /api/webhooks/{id}/deliveries`: newest first. */
  async list(
    tenant: Tenant,
    endpointId: number,
    status: DeliveryStatus | undefined,
    page: PageRequest,
  ): Promise<{ items: DeliveryView[]; total: number }> {
    const where = sql`${tenantScope()} AND endpoint_id = ${endpointId} ${status ? sql`AND status = ${status}` : sql``}`;
    const count = tenantSql(tenant)`SELECT count(*)::int AS n FROM webhook_deliveries WHERE ${where}`;
    const [{ n }]: { n: number }[] = await this.dataSource.query(count.text, count.values);
    const q = tenantSql(tenant)`SELECT ${sql.raw(VIEW)} FROM webhook_deliveries WHERE ${where}
      ORDER BY created_at DESC, id DESC LIMIT ${page.perPage} OFFSET ${offsetOf(page)}`;
    const rows: DeliveryView[] = await this.dataSource.query(q.text, q.values);
    return { items: rows.map(viewOf), total: n };
  }

  /** A delivery of the endpoint due again now (one more attempt, same webhook-id), or null when there is none. */
  async retryNow(tenant: Tenant, endpointId: number, id: string): Promise<DeliveryView | null> {
    const q = tenantSql(
      tenant,
    )`WITH retried AS (UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now()
      WHERE ${tenantScope()} AND endpoint_id = ${endpointId} AND id = ${id} RETURNING *)
      SELECT ${sql.raw(VIEW)} FROM retried`;
    const [row]: DeliveryView[] = await this.dataSource.query(q.text, q.values);
    return row ? viewOf(row) : null;
  }

  /** One delivery of the endpoint, or null. */
  async get(tenant: Tenant, endpointId: number, id: string): Promise<DeliveryView | null> {
    const q = tenantSql(
      tenant,
    )`SELECT ${sql.raw(VIEW)} FROM webhook_deliveries WHERE ${tenantScope()} AND endpoint_id = ${endpointId} AND id = ${id}`;
    const [row]: DeliveryView[] = await this.dataSource.query(q.text, q.values);
    return row ? viewOf(row) : null;
  }

  /** The endpoint was deleted: what it was still owed is dropped. */
  async dropPending(tenant: Tenant, endpointId: number): Promise<void> {
    const q = tenantSql(
      tenant,
    )`DELETE FROM webhook_deliveries WHERE ${tenantScope()} AND endpoint_id = ${endpointId} AND status = 'pending'`;
    await this.dataSource.query(q.text, q.values);
  }
}

function viewOf(r: DeliveryView): DeliveryView {
  return {
    id: r.id,
    event_type: r.event_type,
    created_at: r.created_at,
    status: r.status,
    attempts: Number(r.attempts),
    last_attempt_at: r.last_attempt_at,
    next_attempt_at: r.next_attempt_at,
    response_status: r.response_status === null ? null : Number(r.response_status),
  };
}

/**
 * The users a delivery's body names: every object in it with a numeric `id` and a `display_name`
 * (the UserBase shape every record uses for a person), and every numeric `user_id` (the owner of an
 * expense or claim, whose texts the body carries). An anonymisation purges the deliveries that
 * name its user (webhook-personal-data.projection.ts).
 */
export function usersNamedIn(body: string): number[] {
  const found = new Set<number>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (value === null || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    if (typeof record.id === 'number' && 'display_name' in record) found.add(record.id);
    if (typeof record.user_id === 'number') found.add(record.user_id);
    Object.values(record).forEach(walk);
  };
  walk(JSON.parse(body));
  return [...found];
}

import type { Queries } from '../hierarchy/organisation-facts.js';

/**
 * Whether the user is anonymised (or unknown), read with `db`: inside another context's write, its
 * own query, after it holds the user's identity gate (identityGateOf.user,
 * docs/privacy.md#anonymising-a-user).
 */
export async function userGone(db: Queries, userId: number): Promise<boolean> {
  const rows = await db.query<{ gone: boolean }>(`SELECT anonymised_at IS NOT NULL AS gone FROM users WHERE id = $1`, [
    userId,
  ]);
  return rows[0]?.gone ?? true;
}

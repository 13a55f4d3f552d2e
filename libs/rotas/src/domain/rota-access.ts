import { ForbiddenError, NotFoundError } from '#app/platform';

/** The part of a caller's reach (rotas.policy.ts, CallerReach) the checks of a rota read. */
export interface RotaReach {
  /** Teams the caller sees (roles and below). */
  readonly seen: ReadonlySet<number>;
  /** Teams `manage-rotas` reaches. */
  readonly manages: ReadonlySet<number>;
}

/**
 * A rota the caller acts on: `rota` is what the tenant-scoped read found (null: unknown or another
 * organisation's, 404); hidden by the hierarchy, 403. Pure, so write descriptions call it in `decide`.
 */
export function seenRota<T extends { teamId: number }>(reach: RotaReach, rota: T | null): T {
  if (!rota) throw new NotFoundError('Rota');
  if (!reach.seen.has(rota.teamId)) throw new ForbiddenError('You cannot see this rota.');
  return rota;
}

/** A rota the caller administers: seen (seenRota), and `manage-rotas` over its team (else 403). */
export function managedRota<T extends { teamId: number }>(reach: RotaReach, rota: T | null): T {
  const seen = seenRota(reach, rota);
  if (!reach.manages.has(seen.teamId))
    throw new ForbiddenError("This needs the manage-rotas permission over the rota's team.");
  return seen;
}

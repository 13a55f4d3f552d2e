import { Injectable } from '@nestjs/common';
import { type Caller, type Permission, Teams } from '#app/identity';
import { ForbiddenError } from '#app/platform';
import { managedRota, seenRota } from './domain/rota-access.js';

/**
 * Who may do what with rotas (docs/rota-domain.md#who-may-do-what):
 * - a user **sees** a rota when they hold a role in its team or a team above it (no permission);
 * - `manage-rotas` over a rota's team: patterns, administration, timeslots, bulk, replace,
 *   contacts (add, remove, validate), and overriding the booking rules;
 * - `add-user-shifts` over the team: booking, editing and cancelling other users' shifts.
 * A rota of another organisation (or an unknown id) is a 404; one the hierarchy keeps from the
 * caller a 403. Without `manage-rotas` anywhere every administration route is a 403.
 */
export const ROTA_PERMISSIONS = {
  manage: 'manage-rotas',
  addUserShifts: 'add-user-shifts',
} as const satisfies Record<string, Permission>;

/** What the caller reaches, read once per request: the pure rules below take it. */
export interface CallerReach {
  readonly userId: number;
  /** Teams the caller sees (roles and below). */
  readonly seen: ReadonlySet<number>;
  /** Teams `manage-rotas` reaches (empty without the permission). */
  readonly manages: ReadonlySet<number>;
  /** Teams `add-user-shifts` reaches. */
  readonly addsShifts: ReadonlySet<number>;
  /** The caller's status is `on_hold`. */
  readonly onHold: boolean;
}

/** The rota fields the permission rules read. */
export interface RotaForPermissions {
  readonly teamId: number;
  readonly selfManage: boolean;
  readonly restrictedByRole: boolean;
  readonly roleProfileIds: readonly number[];
  readonly allowSameDayAdd: boolean;
  readonly allowSameDayCancel: boolean;
  readonly allowSameDayEdit: boolean;
}

/** The Rota permissions object (docs/rota-domain.md#the-rota-permissions-object). */
export interface RotaPermissions {
  can_view_rota: boolean;
  can_add_shifts_to_self: boolean;
  can_add_shifts_to_others: boolean;
  can_edit_other_shifts: boolean;
  can_cancel_other_shifts: boolean;
  can_override_rota: boolean;
  allowed_roles: number[];
  allow_same_day_add: boolean;
  allow_same_day_cancel: boolean;
  allow_same_day_edit: boolean;
}

/** A manager of a rota: `manage-rotas` or `add-user-shifts` over its team. */
export const isManager = (reach: CallerReach, teamId: number): boolean =>
  reach.manages.has(teamId) || reach.addsShifts.has(teamId);

/** The teams whose rotas the caller manages (isManager), in no particular order. */
export const managedTeams = (reach: CallerReach): number[] => [...new Set([...reach.manages, ...reach.addsShifts])];

/** The Rota permissions object for the caller and one rota (docs/rota-domain.md#the-rota-permissions-object). */
export function rotaPermissions(reach: CallerReach, rota: RotaForPermissions): RotaPermissions {
  const sees = reach.seen.has(rota.teamId);
  const manager = isManager(reach, rota.teamId);
  return {
    can_view_rota: sees,
    can_add_shifts_to_self: sees && !reach.onHold && (rota.selfManage || manager),
    can_add_shifts_to_others: manager,
    can_edit_other_shifts: manager,
    can_cancel_other_shifts: manager,
    can_override_rota: reach.manages.has(rota.teamId),
    allowed_roles: rota.restrictedByRole ? [...rota.roleProfileIds] : [],
    allow_same_day_add: rota.allowSameDayAdd,
    allow_same_day_cancel: rota.allowSameDayCancel,
    allow_same_day_edit: rota.allowSameDayEdit,
  };
}

/** Where a view covers several rotas, each flag is true when it is true for any of them; `allowed_roles` is their union. */
export function combinedPermissions(all: readonly RotaPermissions[]): RotaPermissions {
  const any = (key: keyof Omit<RotaPermissions, 'allowed_roles'>) => all.some((p) => p[key]);
  return {
    can_view_rota: any('can_view_rota'),
    can_add_shifts_to_self: any('can_add_shifts_to_self'),
    can_add_shifts_to_others: any('can_add_shifts_to_others'),
    can_edit_other_shifts: any('can_edit_other_shifts'),
    can_cancel_other_shifts: any('can_cancel_other_shifts'),
    can_override_rota: any('can_override_rota'),
    allowed_roles: [...new Set(all.flatMap((p) => p.allowed_roles))].sort((a, b) => a - b),
    allow_same_day_add: any('allow_same_day_add'),
    allow_same_day_cancel: any('allow_same_day_cancel'),
    allow_same_day_edit: any('allow_same_day_edit'),
  };
}

@Injectable()
export class RotasPolicy {
  constructor(private readonly teams: Teams) {}

  /**
   * The caller's reach: from the Caller's standing when the log-in check read it, else in two small
   * queries (the caller as a booker: standing and seen teams). A permission reaches the teams the caller sees (their
   * roles' teams and those below, docs/http-conventions.md#hierarchy), so the teams it manages or
   * books for are the seen teams when the caller holds the permission, and none otherwise.
   */
  async reach(caller: Caller): Promise<CallerReach> {
    // The log-in check read the caller's standing with the session (Caller.standing): no query then.
    const me = caller.standing ?? (await this.teams.bookersOf(caller, [caller.userId])).get(caller.userId);
    const seen = new Set(me?.seen ?? []);
    const reached = (permission: string) => new Set(caller.permissions.has(permission) ? seen : []);
    return {
      userId: caller.userId,
      seen,
      manages: reached(ROTA_PERMISSIONS.manage),
      addsShifts: reached(ROTA_PERMISSIONS.addUserShifts),
      onHold: me?.onHold ?? false,
    };
  }

  /** Administration routes: `manage-rotas` somewhere, else 403 before anything is read. */
  requireManageRotas(caller: Caller): void {
    if (!caller.permissions.has(ROTA_PERMISSIONS.manage))
      throw new ForbiddenError('This needs the manage-rotas permission.');
  }

  /**
   * Reports over the shifts of managed rotas (the volunteer hours): `manage-rotas` or
   * `add-user-shifts` somewhere, else 403 before anything is read. The teams it then covers:
   * those either permission reaches (managedTeams).
   */
  requireRotaManager(caller: Caller): void {
    if (!caller.permissions.has(ROTA_PERMISSIONS.manage) && !caller.permissions.has(ROTA_PERMISSIONS.addUserShifts))
      throw new ForbiddenError('This needs the add-user-shifts or manage-rotas permission.');
  }

  /** A rota the caller acts on (seenRota). */
  assertSees<T extends { teamId: number }>(reach: CallerReach, rota: T | null): T {
    return seenRota(reach, rota);
  }

  /** A rota the caller administers (managedRota). */
  assertManages<T extends { teamId: number }>(reach: CallerReach, rota: T | null): T {
    return managedRota(reach, rota);
  }
}

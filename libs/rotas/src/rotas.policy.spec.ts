import { describe, expect, it } from '@jest/globals';
import { type CallerReach, combinedPermissions, rotaPermissions, type RotaForPermissions } from './rotas.policy.js';

const rota: RotaForPermissions = {
  teamId: 5,
  selfManage: false,
  restrictedByRole: false,
  roleProfileIds: [3],
  allowSameDayAdd: true,
  allowSameDayCancel: false,
  allowSameDayEdit: false,
};
const reach = (over: Partial<CallerReach> = {}): CallerReach => ({
  userId: 1,
  seen: new Set([5]),
  manages: new Set(),
  addsShifts: new Set(),
  onHold: false,
  ...over,
});

describe('the Rota permissions object (docs/rota-domain.md#the-rota-permissions-object)', () => {
  it('given a volunteer who sees a rota without self-management, then they may view it and nothing more', () => {
    expect(rotaPermissions(reach(), rota)).toEqual({
      can_view_rota: true,
      can_add_shifts_to_self: false,
      can_add_shifts_to_others: false,
      can_edit_other_shifts: false,
      can_cancel_other_shifts: false,
      can_override_rota: false,
      allowed_roles: [],
      allow_same_day_add: true,
      allow_same_day_cancel: false,
      allow_same_day_edit: false,
    });
  });
  it('given self_manage, then a volunteer who sees it may add shifts to themselves unless on hold', () => {
    expect(rotaPermissions(reach(), { ...rota, selfManage: true }).can_add_shifts_to_self).toBe(true);
    expect(rotaPermissions(reach({ onHold: true }), { ...rota, selfManage: true }).can_add_shifts_to_self).toBe(false);
  });
  it('given a rota the caller does not see, then nothing is allowed', () => {
    const p = rotaPermissions(reach({ seen: new Set([6]) }), { ...rota, selfManage: true });
    expect(p.can_view_rota).toBe(false);
    expect(p.can_add_shifts_to_self).toBe(false);
  });
  it('given add-user-shifts over the team, then the caller manages shifts but may not override the rota', () => {
    const p = rotaPermissions(reach({ addsShifts: new Set([5]) }), rota);
    expect([
      p.can_add_shifts_to_self,
      p.can_add_shifts_to_others,
      p.can_edit_other_shifts,
      p.can_cancel_other_shifts,
      p.can_override_rota,
    ]).toEqual([true, true, true, true, false]);
  });
  it('given manage-rotas over the team, then the caller may also override the rota', () => {
    expect(rotaPermissions(reach({ manages: new Set([5]) }), rota).can_override_rota).toBe(true);
  });
  it('given a role-restricted rota, then allowed_roles are its role profile ids', () => {
    expect(rotaPermissions(reach(), { ...rota, restrictedByRole: true }).allowed_roles).toEqual([3]);
  });
  it('when several rotas are combined, then each flag is true when it is true for any of them', () => {
    const a = rotaPermissions(reach({ seen: new Set([5, 6]), manages: new Set([6]) }), rota);
    const b = rotaPermissions(reach({ seen: new Set([5, 6]), manages: new Set([6]) }), {
      ...rota,
      teamId: 6,
      restrictedByRole: true,
      roleProfileIds: [2, 3],
      allowSameDayCancel: true,
    });
    const all = combinedPermissions([a, b]);
    expect(all.can_override_rota).toBe(true);
    expect(all.allow_same_day_cancel).toBe(true);
    expect(all.allowed_roles).toEqual([2, 3]);
    expect(combinedPermissions([]).can_view_rota).toBe(false);
  });
});

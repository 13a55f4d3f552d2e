import type { Caller } from '#app/identity';
import { type CallerReach, isManager } from '../rotas.policy.js';
import type { SwapCaller } from './shift-swap.js';

/** The caller as the swap decisions see them: a manager of a rota through `isManager`. */
export const swapCallerOf = (caller: Caller, reach: CallerReach): SwapCaller => ({
  userId: caller.userId,
  organisationId: caller.organisationId,
  manages: (teamId) => isManager(reach, teamId),
});

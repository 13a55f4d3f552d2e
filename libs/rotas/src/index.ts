export { RotasModule } from './rotas.module.js';
export { RotasHttpModule } from './rotas-http.module.js';
export type { RotasEvent, RotaEvent, ShiftPatternEvent, TeamEvent } from './rotas.events.js';
export { ROTAS_QUEUES, RotasWorkerModule } from './rotas-worker.module.js';
export {
  RotaRecords,
  type PersonalShiftView,
  type PublicRepeatingShift,
  type RotasPersonalData,
} from './public-records.js';
export type { ShiftView } from './booking/shift.queries.js';
export type { RotaView } from './rota/rota.queries.js';
export { AttendanceDto, ShiftDto } from './http/shift.responses.js';
export { RotaDto } from './http/rota.responses.js';
/** The volunteer hours report's one statement, as the route builds it (bench/hours.ts times it). */
export { hoursStatement, type HoursGrouping, type HoursRequest } from './hours/volunteer-hours.queries.js';
export {
  AnonymisedUserShifts,
  type AnonymisedUser,
  decideEndUserShifts,
  type UserShiftsEndPlan,
} from './booking/anonymised-user-shifts.js';

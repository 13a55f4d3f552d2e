import { personalData } from '#app/event-store';

/**
 * Rotas' personal data in the log (docs/privacy.md, "Sealed fields in the log"): the attendance
 * note on a volunteer's shift (theirs, whoever wrote it), a stand-in note (its writer's) and their
 * calendar feed's token.
 */
personalData.declare<{ userId: number }>('rotas.ShiftAttendanceRecorded', {
  owner: (d) => d.userId,
  fields: { note: null },
});
// The stand-in note is its writer's (docs/rota-domain.md#stand-ins-and-take-overs), whoever's shift it is on.
personalData.declare<{ requestedBy: number }>('rotas.ShiftStandInRequested', {
  owner: (d) => d.requestedBy,
  fields: { note: null },
});
personalData.declare<{ writtenBy: number }>('rotas.ShiftStandInNoteChanged', {
  owner: (d) => d.writtenBy,
  fields: { note: null },
});
personalData.declare<{ userId: number }>('rotas.CalendarFeedIssued', {
  owner: (d) => d.userId,
  fields: { tokenHash: '' },
});

// The organisation's: names of its patterns, rotas and timeslots.
personalData.organisation(['rotas.ShiftPatternCreated', 'rotas.RotaCreated', 'rotas.RotaPatternReplaced'], ['name']);
personalData.organisation('rotas.RotaChanged', ['changes.name']);

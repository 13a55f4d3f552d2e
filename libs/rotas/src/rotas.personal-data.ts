import { personalData } from '#app/event-store';

/**
 * Rotas' personal data in the log (docs/privacy.md, "Sealed fields in the log"): the attendance
 * note on a volunteer's shift (theirs, whoever wrote it) and their calendar feed's token.
 */
personalData.declare<{ userId: number }>('rotas.ShiftAttendanceRecorded', {
  owner: (d) => d.userId,
  fields: { note: null },
});
personalData.declare<{ userId: number }>('rotas.CalendarFeedIssued', {
  owner: (d) => d.userId,
  fields: { tokenHash: '' },
});

// The organisation's: names of its patterns, rotas and timeslots.
personalData.organisation(['rotas.ShiftPatternCreated', 'rotas.RotaCreated', 'rotas.RotaPatternReplaced'], ['name']);
personalData.organisation('rotas.RotaChanged', ['changes.name']);

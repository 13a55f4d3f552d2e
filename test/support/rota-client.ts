import type { Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** A request whose answer is read as text whatever its type (supertest leaves text/calendar unread). */
export const asText = (test: Test): Test =>
  test.buffer(true).parse((r, done) => {
    let text = '';
    r.setEncoding('utf8');
    r.on('data', (chunk: string) => (text += chunk));
    r.on('end', () => done(null, text));
  });

/** A shift pattern body open on every day of the week between two times, up to `max` volunteers. */
export const everyDayPattern = (startTime: string, endTime: string, max: number) =>
  WEEKDAYS.map((d) => ({
    weekday_start: d,
    start_time: startTime,
    weekday_end: d,
    end_time: endTime,
    min: 1,
    ideal: 1,
    max,
  }));

/** A rota of one team from `startDate`, on a pattern open every day 07:00–20:00 (5 places): its id. */
export async function openRota(
  http: () => TestAgent,
  auth: Record<string, string>,
  rota: { name: string; teamId: number; startDate: string },
): Promise<number> {
  const pattern = everyDayPattern('07:00', '20:00', 5);
  const patternId = (await http().post('/api/shift-patterns').set(auth).send({ name: rota.name, pattern }).expect(201))
    .body.data.id;
  const body = { name: rota.name, start_date: rota.startDate, pattern_id: patternId, team: [{ id: rota.teamId }] };
  return (await http().post('/api/rotas').set(auth).send(body).expect(201)).body.data[0].id;
}

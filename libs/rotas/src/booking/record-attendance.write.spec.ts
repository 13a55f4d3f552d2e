import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '#app/platform';
import { type AttendanceRequest, workedTimesOf } from './record-attendance.write.js';

const ZONE = 'Europe/London';
const request = (more: Partial<AttendanceRequest>): AttendanceRequest => ({ status: 'attended', note: null, ...more });

describe('workedTimesOf', () => {
  it('given attended with a start only, then that instant alone (the end stays the shift’s)', () => {
    expect(workedTimesOf(request({ start_datetime: '2027-03-29 09:15' }), ZONE)).toEqual({
      start: new Date('2027-03-29T08:15:00Z'),
    });
  });

  it('given another status with times, then none are parsed', () => {
    expect(workedTimesOf(request({ status: 'no_show', start_datetime: 'nope' }), ZONE)).toEqual({});
  });

  it('given two bad times, then one 422 names both', () => {
    let error: unknown;
    try {
      workedTimesOf(request({ start_datetime: 'nope', end_datetime: '2027-03-28 01:30' }), ZONE);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect(Object.keys((error as ValidationError).errors ?? {}).sort()).toEqual(['end_datetime', 'start_datetime']);
  });
});

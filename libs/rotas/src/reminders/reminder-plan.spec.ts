import { describe, expect, it } from '@jest/globals';
import { reminderHours, reminderJobId, reminderMail, reminderMailKey, reminderStep } from './reminder-plan.js';

const HOUR = 3_600_000;
const now = new Date('2027-07-01T08:00:00Z');
const at = (iso: string) => new Date(iso);
const booked = (start: string) => ({ booked: true, start: at(start) });

describe('shift reminders: when and whether', () => {
  it('given a shift booked beyond the window, then its reminder waits until start − hours', () => {
    expect(reminderStep(booked('2027-07-03T09:00:00Z'), at('2027-07-03T09:00:00Z'), 48, HOUR, now)).toEqual({
      kind: 'wait',
      until: at('2027-07-01T09:00:00Z'),
    });
  });

  it('given a shift booked or moved inside the window, then it is reminded at once', () => {
    expect(reminderStep(booked('2027-07-02T09:00:00Z'), at('2027-07-02T09:00:00Z'), 48, HOUR, now)).toEqual({
      kind: 'send',
    });
    expect(reminderStep(booked('2027-07-03T08:00:00Z'), at('2027-07-03T08:00:00Z'), 48, HOUR, now)).toEqual({
      kind: 'send',
    }); // due exactly now
  });

  it('given a job for a time the shift no longer has (moved), or a cancelled or unknown shift, then nothing', () => {
    expect(reminderStep(booked('2027-07-02T10:00:00Z'), at('2027-07-02T09:00:00Z'), 48, HOUR, now)).toEqual({
      kind: 'none',
    });
    expect(
      reminderStep({ booked: false, start: at('2027-07-02T09:00:00Z') }, at('2027-07-02T09:00:00Z'), 48, HOUR, now),
    ).toEqual({ kind: 'none' });
    expect(reminderStep(undefined, at('2027-07-02T09:00:00Z'), 48, HOUR, now)).toEqual({ kind: 'none' });
  });

  it('given reminders switched off ("0"), or a shift that has started, then nothing', () => {
    expect(reminderStep(booked('2027-07-02T09:00:00Z'), at('2027-07-02T09:00:00Z'), 0, HOUR, now)).toEqual({
      kind: 'none',
    });
    expect(reminderStep(booked('2027-07-01T08:00:00Z'), at('2027-07-01T08:00:00Z'), 48, HOUR, now)).toEqual({
      kind: 'none',
    });
  });

  it('given a job that fires after the window shrank, then it waits again until the new due time', () => {
    expect(reminderStep(booked('2027-07-03T08:00:00Z'), at('2027-07-03T08:00:00Z'), 24, HOUR, now)).toEqual({
      kind: 'wait',
      until: at('2027-07-02T08:00:00Z'),
    });
  });

  it('given a shorter hour (tests), then the window is counted in it', () => {
    expect(reminderStep(booked('2027-07-01T08:01:00Z'), at('2027-07-01T08:01:00Z'), 50, 1_000, now)).toEqual({
      kind: 'wait',
      until: at('2027-07-01T08:00:10Z'),
    });
  });

  it('reads the setting as whole hours, anything else as off', () => {
    expect([
      reminderHours('48'),
      reminderHours('0'),
      reminderHours('336'),
      reminderHours(''),
      reminderHours(null),
      reminderHours('x'),
      reminderHours(12),
    ]).toEqual([48, 0, 336, 0, 0, 0, 0]);
  });

  it('names a job and an outbox key by the shift and its start instant, so another time of the same shift is another reminder', () => {
    expect(reminderJobId(7, at('2027-07-02T09:00:00Z'))).toBe('reminder-7-1814518800');
    expect(reminderMailKey(7, at('2027-07-02T09:00:00Z'))).toBe('shift-reminder-7-1814518800');
    expect(reminderMailKey(7, at('2027-07-02T10:00:00Z'))).not.toBe(reminderMailKey(7, at('2027-07-02T09:00:00Z')));
  });

  it('writes a reminder naming the rota, the local date with its weekday, and the times (an overnight end names its date)', () => {
    expect(
      reminderMail({
        to: 'ann@x.example',
        userName: 'Ann',
        rotaName: 'Café',
        startWall: '2027-07-01 07:30',
        endWall: '2027-07-01 15:00',
      }),
    ).toEqual({
      to: 'ann@x.example',
      subject: 'Shift reminder: Café, Thursday 2027-07-01 07:30',
      text: 'Hello Ann,\n\nA reminder of your shift on Café:\n\nThursday 2027-07-01, 07:30 to 15:00\n',
    });
    expect(
      reminderMail({
        to: 'a@x.example',
        userName: 'Ann',
        rotaName: 'Night',
        startWall: '2027-07-01 22:00',
        endWall: '2027-07-02 06:00',
      }).text,
    ).toContain('Thursday 2027-07-01, 22:00 to Friday 2027-07-02 06:00');
  });
});

import { describe, expect, it } from '@jest/globals';
import type { CommandBus } from '@nestjs/cqrs';
import type { Job } from 'bullmq';
import { derivedEventId, systemActor, userActor } from './actor.js';
import { Cause, CausedCommand, causedJob, type CausedJob, CausedJobProcessor } from './caused-command.js';
import type { StoredEvent } from './event.types.js';

const submitted: StoredEvent = {
  position: 12,
  transactionId: '900',
  eventId: '0b6f7a4e-8d7c-4c1a-9a53-5d6c1f0e2a11',
  streamId: 'c-1',
  streamVersion: 3,
  type: 'test.Submitted',
  schemaVersion: 1,
  data: { id: 1, organisationId: 3 },
  metadata: { organisationId: 3, actor: userActor(5) },
  recordedAt: new Date(0),
};

class Note extends CausedCommand<string> {
  constructor(
    cause: Cause,
    readonly text: string,
  ) {
    super(cause);
  }
}

describe('commands caused by an event', () => {
  it('a caused job carries the event data and the event as its cause', () => {
    expect(causedJob('submitted', submitted)).toEqual({
      name: 'submitted',
      data: { id: 1, organisationId: 3, cause: { eventId: submitted.eventId, metadata: submitted.metadata } },
    });
    expect(causedJob('submitted', submitted, { id: 1 }, { priority: 2 })).toEqual({
      name: 'submitted',
      data: { id: 1, cause: { eventId: submitted.eventId, metadata: submitted.metadata } },
      options: { priority: 2 },
    });
  });

  it('the cause gives the system as actor, the event as causation and its chain as correlation', () => {
    const cause = new Cause({ eventId: submitted.eventId, metadata: submitted.metadata }, 'finance mail');
    expect(cause.metadata).toEqual({
      organisationId: 3,
      actor: systemActor('finance mail'),
      causationId: submitted.eventId,
      correlationId: submitted.eventId,
    });
    expect(new Cause({ eventId: 'e-2', metadata: { correlationId: 'req-1' } }, 'x').metadata).toMatchObject({
      causationId: 'e-2',
      correlationId: 'req-1',
    });
    expect(() => new Cause({ eventId: '', metadata: {} }, 'x')).toThrow('no id');
    expect(() => new Cause({ eventId: 'e', metadata: {} }, '')).toThrow('a reason');
  });

  it('identifies the events it causes with ids derived from the cause, the same on every attempt, distinct per key and position', () => {
    const cause = new Cause({ eventId: submitted.eventId, metadata: {} }, 'finance mail');
    const events = [
      { type: 'test.A', data: {} },
      { type: 'test.B', data: { x: 1 } },
    ];
    const first = cause.identify('mailed', events);
    expect(first).toEqual([
      { type: 'test.A', data: {}, eventId: derivedEventId(submitted.eventId, 'mailed/0') },
      { type: 'test.B', data: { x: 1 }, eventId: derivedEventId(submitted.eventId, 'mailed/1') },
    ]);
    expect(
      new Cause({ eventId: submitted.eventId, metadata: { organisationId: 9 } }, 'retry').identify('mailed', events),
    ).toEqual(first);
    const other = cause.identify('webhook', events).map((e) => e.eventId);
    expect(new Set([...first.map((e) => e.eventId), ...other]).size).toBe(4);
    expect(cause.identify('mailed', [])).toEqual([]);
    expect(() => cause.identify('', events)).toThrow('a key');
  });

  it('a processor gets the job data and the cause with its reason, and issues its commands through the bus', async () => {
    const executed: unknown[] = [];
    const bus = { execute: async (command: unknown) => (executed.push(command), 'done') } as unknown as CommandBus;
    class Noting extends CausedJobProcessor<{ id: number }> {
      protected readonly reason = 'noting';
      seen: unknown[] = [];
      protected async react(data: { id: number }, cause: Cause): Promise<void> {
        this.seen.push(
          data.id,
          cause.reason,
          cause.event.eventId,
          await this.issue(new Note(cause, `note ${data.id}`)),
        );
      }
    }
    const processor = new Noting(bus);
    const job = causedJob('submitted', submitted);
    await processor.process({ data: job.data } as Job<CausedJob<{ id: number }>>);
    expect(processor.seen).toEqual([1, 'noting', submitted.eventId, 'done']);
    expect(executed).toHaveLength(1);
    expect((executed[0] as Note).cause.metadata).toMatchObject({
      actor: systemActor('noting'),
      causationId: submitted.eventId,
    });
    await expect(processor.process({ data: { id: 1 } } as Job<CausedJob<{ id: number }>>)).rejects.toThrow(
      'the job carries no cause',
    );
  });
});

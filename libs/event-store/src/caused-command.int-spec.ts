import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { contextFixture } from '../../../test/support/test-context.js';
import { derivedEventId, systemActor, userActor } from './actor.js';
import { Cause, CausedCommand } from './caused-command.js';
import { ConcurrencyError } from './errors.js';
import { EventStore } from './event-store.js';
import type { StoredEvent } from './event.types.js';

/** Appends one event to `streamId` because of the cause, whatever the stream holds: only the derived id keeps it once. */
class Tally extends CausedCommand<number> {
  constructor(
    cause: Cause,
    readonly streamId: string,
  ) {
    super(cause);
  }
}

@CommandHandler(Tally)
class TallyHandler implements ICommandHandler<Tally> {
  constructor(private readonly store: EventStore) {}

  async execute({ cause, streamId }: Tally): Promise<number> {
    const result = await this.store.handle(
      streamId,
      (n: number | null) => (n ?? 0) + 1,
      () => cause.identify('tally', [{ type: 'test.Tallied', data: {} }]),
      {
        metadata: cause.metadata,
      },
    );
    return result.events.length;
  }
}

describe('commands caused by an event, through the command bus', () => {
  const ctx = contextFixture({ providers: [TallyHandler], also: (app) => ({ bus: app.get(CommandBus) }) });

  async function causeEvent(): Promise<StoredEvent> {
    const { events } = await ctx.store.handle(
      `cause-${randomUUID()}`,
      () => null,
      () => [{ type: 'test.Caused', data: {} }],
      {
        expect: 'no_stream',
        metadata: { organisationId: 4, actor: userActor(9) },
      },
    );
    return events[0]!;
  }

  it('appends once with the derived id, the system as actor and the event as causation, however often the command runs', async () => {
    const cause = await causeEvent();
    const streamId = `tally-${randomUUID()}`;
    const tally = () => ctx.bus.execute(new Tally(new Cause(cause, 'tallying'), streamId));
    expect(await tally()).toBe(1);
    expect(await tally()).toBe(0);
    expect(await Promise.all([tally(), tally(), tally()])).toEqual([0, 0, 0]);
    const events = await ctx.store.readStream(streamId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      eventId: derivedEventId(cause.eventId, 'tally/0'),
      metadata: {
        organisationId: 4,
        actor: systemActor('tallying'),
        causationId: cause.eventId,
        correlationId: cause.eventId,
      },
    });
  });

  it('two workers running the same job at once store the event once; one that lost the race gets a 409, which a retry answers with nothing', async () => {
    const cause = await causeEvent();
    const streamId = `tally-${randomUUID()}`;
    const tally = () => ctx.bus.execute(new Tally(new Cause(cause, 'tallying'), streamId));
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, tally));
    const appended = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    expect(appended.filter((n) => n === 1)).toHaveLength(1);
    expect(refused.filter((e) => !(e instanceof ConcurrencyError))).toEqual([]);
    expect(await tally()).toBe(0);
    expect((await ctx.store.readStream(streamId)).map((e) => e.eventId)).toEqual([
      derivedEventId(cause.eventId, 'tally/0'),
    ]);
  });
});

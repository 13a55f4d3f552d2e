import { describe, expect, it } from '@jest/globals';
import { actorOf, actorUserId, causedBy, derivedEventId, systemActor, userActor } from './actor.js';

describe('actors and causation', () => {
  it('reads the actor of new and of older events', () => {
    expect(actorOf({ actor: systemActor('mail') })).toEqual({ kind: 'system', reason: 'mail' });
    expect(actorOf({ actorId: 7 })).toEqual(userActor(7));
    expect(actorOf({})).toBeNull();
    expect(actorUserId({ actor: systemActor('mail') })).toBeNull();
    expect(actorUserId({ actorId: 7 })).toBe(7);
  });

  it('given a cause, the caused metadata names the system, the cause and the chain', () => {
    const first = { eventId: 'e-1', metadata: { organisationId: 3, actor: userActor(5) } };
    expect(causedBy(first, 'finance mail')).toEqual({
      organisationId: 3,
      actor: systemActor('finance mail'),
      correlationId: 'e-1',
      causationId: 'e-1',
    });
    const second = { eventId: 'e-2', metadata: causedBy(first, 'finance mail') };
    expect(causedBy(second, 'next')).toMatchObject({ correlationId: 'e-1', causationId: 'e-2' });
  });

  it('derives the same UUID-shaped id for the same cause and position, and others otherwise', () => {
    const id = derivedEventId('e-1', 0);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(derivedEventId('e-1', 0)).toBe(id);
    expect(
      new Set([id, derivedEventId('e-1', 1), derivedEventId('e-2', 0), derivedEventId('e-1', '2027-01-04')]).size,
    ).toBe(4);
  });
});

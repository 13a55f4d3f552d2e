import { describe, expect, it } from '@jest/globals';
import { systemActor, userActor } from '../actor.js';
import type { EventMetadata, StoredEvent } from '../event.types.js';
import { actionOf, defineHistory, historyEntries, userRef } from './history.js';

type ThingEvent =
  | { type: 'test.ThingMade'; data: { id: number; ownerId: number; name: string } }
  | { type: 'test.ThingRenamed'; data: { id: number; name: string } }
  | { type: 'test.ThingIndexed'; data: { id: number } };

const history = defineHistory<ThingEvent>({
  'test.ThingMade': ({ data }) => ({ name: data.name, owner: userRef(data.ownerId), helpers: [{ user: userRef(9) }] }),
  'test.ThingRenamed': ({ data }) => ({ name: data.name }),
  // Internal: not shown.
  'test.ThingIndexed': null,
});

let version = 0;
const stored = (type: ThingEvent['type'], data: unknown, metadata: EventMetadata): StoredEvent => ({
  position: ++version,
  transactionId: '1',
  eventId: `e-${version}`,
  streamId: 'test.Thing-1',
  streamVersion: version,
  type,
  schemaVersion: 1,
  data,
  metadata,
  recordedAt: new Date(Date.UTC(2027, 0, 4, 9, 30, version)),
});

describe('record history (one mechanism for every context)', () => {
  it('shows the types that have a format, and names an action without its context', () => {
    expect(history.types).toEqual(['test.ThingMade', 'test.ThingRenamed']);
    expect(actionOf('rotas.ShiftBooked')).toBe('ShiftBooked');
  });

  it(
    'given events by a user, the system and a removed user, when read, then each entry has its time, ' +
      'actor (null for the system and the unknown), action and changes, users resolved in one call',
    async () => {
      const calls: number[][] = [];
      const users = async (ids: readonly number[]) => {
        calls.push([...ids].sort());
        return new Map([
          [5, { id: 5, display_name: 'Five' }],
          [9, { id: 9, display_name: 'Nine' }],
        ]);
      };
      const events = [
        stored('test.ThingMade', { id: 1, ownerId: 5, name: 'a' }, { actor: userActor(5) }),
        stored('test.ThingRenamed', { id: 1, name: 'b' }, { actor: systemActor('generation') }),
        stored('test.ThingRenamed', { id: 1, name: 'c' }, { actorId: 77 }),
      ];
      expect(await historyEntries(events, history, users)).toEqual([
        {
          at: events[0]!.recordedAt.toISOString(),
          actor: { id: 5, display_name: 'Five' },
          action: 'ThingMade',
          changes: {
            name: 'a',
            owner: { id: 5, display_name: 'Five' },
            helpers: [{ user: { id: 9, display_name: 'Nine' } }],
          },
        },
        { at: events[1]!.recordedAt.toISOString(), actor: null, action: 'ThingRenamed', changes: { name: 'b' } },
        { at: events[2]!.recordedAt.toISOString(), actor: null, action: 'ThingRenamed', changes: { name: 'c' } },
      ]);
      expect(calls).toEqual([[5, 77, 9].sort()]);
    },
  );

  it('given no user anywhere on the page, then the resolver is not asked', async () => {
    const users = async () => {
      throw new Error('asked');
    };
    expect(
      await historyEntries(
        [stored('test.ThingRenamed', { id: 1, name: 'x' }, { actor: systemActor('s') })],
        history,
        users,
      ),
    ).toHaveLength(1);
  });

  it('refuses to format a type it does not show (the reader pages over the shown types only)', () => {
    expect(() => history.changes(stored('test.ThingIndexed', { id: 1 }, {}))).toThrow('not shown');
  });
});

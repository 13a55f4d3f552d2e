import { describe, expect, it } from '@jest/globals';
import { defineProjection, defineReactor } from './define-projection.js';
import type { StoredEvent } from './event.types.js';
import { op } from './projection.js';

type ThingEvent =
  | { type: 'things.Made' | 'things.Remade'; data: { id: number; name: string } }
  | { type: 'things.Dropped'; data: { id: number } }
  | { type: 'things.Looked'; data: { id: number } };

const stored = <T extends string, D>(type: T, data: D): StoredEvent<T, D> => ({
  position: 1,
  transactionId: '1',
  eventId: 'e',
  streamId: 's',
  streamVersion: 1,
  type,
  schemaVersion: 1,
  data,
  metadata: {},
  recordedAt: new Date(0),
});

const Things = defineProjection<ThingEvent>({
  name: 'things',
  version: 1,
  tables: ['things'],
  on: {
    'things.Made': ({ data }) => [op.upsert('things', ['id'], { id: data.id, name: data.name })],
    'things.Remade': ({ data }) => [op.update('things', { id: data.id }, { name: data.name })],
    'things.Dropped': ({ data }) => [op.delete('things', { id: data.id })],
    'things.Looked': null,
  },
});

describe('defineProjection', () => {
  it('subscribes to the types it handles, not to those marked null', () => {
    expect(new Things().handles).toEqual(['things.Made', 'things.Remade', 'things.Dropped']);
  });

  it('hands each event to its handler with its data typed, and answers nothing for others', () => {
    const things = new Things();
    expect(things.project(stored('things.Made', { id: 1, name: 'a' }))).toEqual([
      op.upsert('things', ['id'], { id: 1, name: 'a' }),
    ]);
    expect(things.project(stored('things.Dropped', { id: 1 }))).toEqual([op.delete('things', { id: 1 })]);
    expect(things.project(stored('things.Looked', { id: 1 }))).toEqual([]);
    expect(things.project(stored('other.Thing', {}))).toEqual([]);
  });

  it('refuses, at compile time, a table missing an event type or naming one the union lacks', () => {
    defineProjection<ThingEvent>({
      name: 'x',
      version: 1,
      tables: [],
      // @ts-expect-error: 'things.Looked' is missing, so a new event type cannot be forgotten.
      on: { 'things.Made': null, 'things.Remade': null, 'things.Dropped': null },
    });
    defineProjection<ThingEvent>({
      name: 'x',
      version: 1,
      tables: [],
      on: {
        'things.Made': null,
        'things.Remade': null,
        'things.Dropped': null,
        'things.Looked': null,
        // @ts-expect-error: 'things.Unknown' is not an event of the union.
        'things.Unknown': null,
      },
    });
  });
});

describe('defineReactor', () => {
  it('turns the events it names into jobs', () => {
    const Reactor = defineReactor<Extract<ThingEvent, { type: 'things.Dropped' }>>({
      name: 'things.mail',
      queue: 'things-mail',
      on: { 'things.Dropped': ({ data }) => ({ name: 'dropped', data }) },
    });
    const reactor = new Reactor();
    expect(reactor.handles).toEqual(['things.Dropped']);
    expect(reactor.toJob(stored('things.Dropped', { id: 4 }))).toEqual({ name: 'dropped', data: { id: 4 } });
    expect(reactor.toJob(stored('things.Made', { id: 4, name: 'a' }))).toBeNull();
  });
});

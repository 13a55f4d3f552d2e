import { describe, expect, it } from '@jest/globals';
import { EventUpcasters } from './upcasters.js';

describe('EventUpcasters', () => {
  it('given no upcaster, returns the stored shape unchanged', () => {
    expect(new EventUpcasters().upcast('a.B', 1, { x: 1 })).toEqual({ schemaVersion: 1, data: { x: 1 } });
  });

  it('given a chain 1→2→3, lifts a version-1 event all the way and a version-2 event one step', () => {
    const u = new EventUpcasters();
    u.register('a.B', 1, (d) => ({ ...(d as object), two: true }));
    u.register('a.B', 2, (d) => ({ ...(d as object), three: true }));
    expect(u.upcast('a.B', 1, {})).toEqual({ schemaVersion: 3, data: { two: true, three: true } });
    expect(u.upcast('a.B', 2, {})).toEqual({ schemaVersion: 3, data: { three: true } });
    expect(u.upcast('a.C', 1, {})).toEqual({ schemaVersion: 1, data: {} });
  });

  it('refuses two upcasters for one step', () => {
    const u = new EventUpcasters();
    u.register('a.B', 1, (d) => d);
    expect(() => u.register('a.B', 1, (d) => d)).toThrow(/twice/);
  });
});

import { describe, expect, it } from '@jest/globals';
import { isAtLeast, lowestSupportedNode } from './supported-node.js';

describe('the Node version check (ADR 0007)', () => {
  it("reads package.json's engines floor", () => {
    expect(lowestSupportedNode()).toEqual([22, 12, 0]);
    expect(lowestSupportedNode('>= 24.1.2')).toEqual([24, 1, 2]);
    expect(lowestSupportedNode('^22')).toBeUndefined();
  });

  it('compares major, then minor, then patch', () => {
    const floor = [22, 12, 0] as const;
    expect(['22.12.0', '22.12.1', '22.13.0', '24.0.0'].map((v) => isAtLeast(v, floor))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['22.11.9', '20.20.2', '8.0.0', '22.1.0'].map((v) => isAtLeast(v, floor))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

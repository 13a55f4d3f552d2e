import { describe, expect, it } from '@jest/globals';
import { isDecimal } from './decimal.js';

describe('isDecimal', () => {
  it.each([0, 1, 12.5, 12.34, 0.1 + 0.2, 1_000_000, -3.75, 19.99])('accepts %p with 2 places', (n) =>
    expect(isDecimal(n, 2)).toBe(true),
  );
  it.each([12.345, 7e-323, -7e-323, 1e-7, 0.001])('refuses %p with 2 places, exponent forms included', (n) =>
    expect(isDecimal(n, 2)).toBe(false),
  );
  it.each([Number.NaN, Infinity, '12', null, [1]])('refuses %p, which is not a finite number', (v) =>
    expect(isDecimal(v, 2)).toBe(false),
  );
  it('counts the places it is given', () => {
    expect(isDecimal(0.4512, 4)).toBe(true);
    expect(isDecimal(0.45123, 4)).toBe(false);
  });
});

import { describe, expect, it } from '@jest/globals';
import { jsonShapeBreach } from './json-shape.js';

const limits = { depth: 3, keys: 3, elements: 4 };
const obj = (n: number) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])));
const arr = (n: number, item: unknown = 1) => JSON.stringify(Array.from({ length: n }, () => item));

describe('jsonShapeBreach', () => {
  it('passes bodies within every limit, at the limits', () => {
    expect(jsonShapeBreach(obj(3), limits)).toBeNull();
    expect(jsonShapeBreach(arr(4), limits)).toBeNull();
    expect(jsonShapeBreach(arr(4, 'x'), limits)).toBeNull();
    expect(jsonShapeBreach(arr(4, {}), limits)).toBeNull();
    expect(jsonShapeBreach('{"a":{"b":[1]}}', limits)).toBeNull();
    expect(jsonShapeBreach('{}', limits)).toBeNull();
    expect(jsonShapeBreach('[]', limits)).toBeNull();
  });

  it('refuses one key, one element or one level too many', () => {
    expect(jsonShapeBreach(obj(4), limits)).toMatch(/more than 3 keys/);
    expect(jsonShapeBreach(arr(5), limits)).toMatch(/more than 4 elements/);
    expect(jsonShapeBreach(arr(5, 'x'), limits)).toMatch(/more than 4 elements/);
    expect(jsonShapeBreach(arr(5, [1]), limits)).toMatch(/more than 4 elements/);
    expect(jsonShapeBreach('{"a":{"b":[[1]]}}', limits)).toMatch(/deeper than 3/);
  });

  it('counts nothing inside strings, escaped quotes included', () => {
    expect(jsonShapeBreach(JSON.stringify({ a: '[[[[[,,,,,,{{{{', b: 'say \\"[[[[[["' }), limits)).toBeNull();
  });

  it('counts each container on its own, so siblings do not add up', () => {
    expect(jsonShapeBreach(JSON.stringify({ a: [1, 2, 3, 4], b: [1, 2, 3, 4], c: obj(3) }), limits)).toBeNull();
  });

  it('names the first breach of a huge hostile body', () => {
    const deep = '['.repeat(500_000) + ']'.repeat(500_000);
    const wide = `{${Array.from({ length: 60_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
    expect(jsonShapeBreach(deep)).toMatch(/deeper than 16/);
    expect(jsonShapeBreach(wide)).toMatch(/more than 256 keys/);
  });
});

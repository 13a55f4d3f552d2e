import { describe, expect, it } from '@jest/globals';
import { isStorableText, unstorableTextIn } from './storable-text.js';

describe('isStorableText', () => {
  it.each([
    ['plain text', 'Riverside'],
    ['the empty string', ''],
    ['an emoji (a valid surrogate pair)', 'Taxi 🚕'],
    ['several pairs in a row', '👋🏽🚕'],
    ['other controls than NUL', 'tab\tand\nnewline\u0001'],
    ['the replacement character', '\ufffd'],
  ])('accepts %s', (_, text) => expect(isStorableText(text)).toBe(true));

  it.each([
    ['NUL', 'a\u0000b'],
    ['NUL alone', '\u0000'],
    ['a lone high surrogate at the end', 'car \ud800'],
    ['a lone high surrogate before a plain character', '\ud83dx'],
    ['a lone low surrogate at the start', '\udc00 car'],
    ['a low surrogate after a complete pair', '🚕\ude95'],
    ['two high surrogates', '\ud83d\ud83d'],
    ['a pair in the wrong order', '\ude95\ud83d'],
  ])('refuses %s', (_, text) => expect(isStorableText(text)).toBe(false));
});

describe('unstorableTextIn', () => {
  it('names every bad string by its path, nested objects and array elements included', () => {
    expect(
      unstorableTextIn({
        name: 'ok',
        description: 'x\u0000',
        type: { id: '\ud800' },
        expenses: [{ id: 1 }, { id: '\udc00' }],
        n: 1,
        b: true,
        z: null,
      }),
    ).toEqual({
      description: [expect.stringMatching(/description field/)],
      'type.id': [expect.any(String)],
      'expenses.1.id': [expect.any(String)],
    });
  });

  it('names a bad key, and the whole value when it is itself a bad string', () => {
    expect(Object.keys(unstorableTextIn({ 'na\u0000me': 'x' }))).toEqual(['na\u0000me']);
    expect(Object.keys(unstorableTextIn('\u0000'))).toEqual(['body']);
  });

  it('finds nothing in good input or in no input', () => {
    expect(unstorableTextIn({ name: 'Taxi 🚕', list: ['a', { b: 'c' }] })).toEqual({});
    expect(unstorableTextIn(undefined)).toEqual({});
  });

  it('walks a deeply nested body without exhausting the stack', () => {
    const deep = JSON.parse('['.repeat(100_000) + '"\\u0000"' + ']'.repeat(100_000));
    expect(Object.keys(unstorableTextIn(deep))).toHaveLength(1);
  });
});

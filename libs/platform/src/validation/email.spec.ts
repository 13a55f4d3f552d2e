import { describe, expect, it } from '@jest/globals';
import { isEmailAddress } from './email.js';

describe('isEmailAddress', () => {
  it.each(['finance@example.org', 'a.b+c@sub.example.co.uk'])('accepts %s', (text) =>
    expect(isEmailAddress(text)).toBe(true),
  );
  it.each([
    '',
    'finance',
    'finance@example',
    'a b@example.org',
    '@example.org',
    `${'x'.repeat(65)}@example.org`,
    `a@${'x'.repeat(250)}.org`,
  ])('refuses %p', (text) => expect(isEmailAddress(text)).toBe(false));
});

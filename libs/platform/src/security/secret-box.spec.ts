import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { SEALED_WITH_ANOTHER_KEY, SecretBox } from './secret-box.js';

describe('SecretBox', () => {
  const box = new SecretBox({ secretsKey: randomBytes(32) });

  it('opens what it sealed, and never shows the clear text', () => {
    const sealed = box.seal('482913');
    expect(sealed).not.toContain('482913');
    expect(box.open(sealed)).toBe('482913');
    expect(box.seal('482913')).not.toBe(sealed); // a fresh IV each time
  });

  it('refuses a tampered value and another key', () => {
    const sealed = box.seal('secret');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    // Another key: the message names the variables (issue 31: an API and a worker that did not share them).
    expect(() => new SecretBox({ secretsKey: randomBytes(32) }).open(sealed)).toThrow(SEALED_WITH_ANOTHER_KEY);
    expect(() => box.open('plain')).toThrow(/not a sealed secret/);
  });
});

import { describe, expect, it } from '@jest/globals';
import { oneLine } from './one-line.js';

describe('oneLine: a name inside one line of an e-mail', () => {
  it('turns each line or paragraph break into a space, CR LF as one', () => {
    expect(oneLine('North\r\nShop')).toBe('North Shop');
    expect(oneLine('a\nb\rc\u000bd\u000ce\u0085f\u2028g\u2029h')).toBe('a b c d e f g h');
    expect(oneLine('two\n\nbreaks')).toBe('two  breaks');
  });

  it('leaves a name without breaks as it is, tabs and other text included', () => {
    for (const name of ['Café (Nord)', 'Ünïcødé 🙂', 'tab\there', '']) expect(oneLine(name)).toBe(name);
  });
});

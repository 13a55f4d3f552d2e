import { describe, expect, it } from '@jest/globals';
import { inlineDisposition } from './content-disposition.js';

describe('inlineDisposition', () => {
  it('gives old clients an ASCII name and new ones the exact name', () => {
    expect(inlineDisposition('receipt.pdf')).toBe(`inline; filename="receipt.pdf"; filename*=UTF-8''receipt.pdf`);
    expect(inlineDisposition('Quittung Zürich (1).png')).toBe(
      `inline; filename="Quittung Z_rich (1).png"; filename*=UTF-8''Quittung%20Z%C3%BCrich%20%281%29.png`,
    );
  });

  it('cannot be broken out of by quotes or line breaks', () => {
    const header = inlineDisposition('a"b\\c\r\nSet-Cookie: x.png');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header.startsWith('inline; filename="a_b_c__Set-Cookie: x.png"')).toBe(true);
  });
});

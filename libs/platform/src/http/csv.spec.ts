import { describe, expect, it } from '@jest/globals';
import { toCsv } from './csv.js';

describe('toCsv', () => {
  it('writes a header and CRLF lines, quoting cells with quotes, commas or line breaks (RFC 4180)', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          { a: 'x, "y"', b: 'line\nbreak' },
          { a: 1, b: null },
        ],
      ),
    ).toBe('a,b\r\n"x, ""y""","line\nbreak"\r\n1,\r\n');
  });

  it('prefixes a cell a spreadsheet would run as a formula with an apostrophe, but not a plain number', () => {
    const rows = ['=SUM(A1)', '+1', '-1+1', '@cmd', '-12.50', '-3', 'plain'].map((a) => ({ a }));
    expect(toCsv(['a'], rows).split('\r\n').slice(1, -1)).toEqual([
      "'=SUM(A1)",
      "'+1",
      "'-1+1",
      "'@cmd",
      '-12.50',
      '-3',
      'plain',
    ]);
  });

  it('prefixes a text column’s cell that looks like a number too (a name is never a number)', () => {
    const rows = [
      { id: 7, name: '-12' },
      { id: 8, name: '+44' },
      { id: 9, name: '12' },
    ];
    expect(toCsv(['id', 'name'], rows, { text: ['name'] })).toBe("id,name\r\n7,'-12\r\n8,'+44\r\n9,12\r\n");
  });

  it('quotes a prefixed cell that needs quoting as a whole', () => {
    expect(toCsv(['name'], [{ name: '=Smith, "Jo"' }])).toBe('name\r\n"\'=Smith, ""Jo"""\r\n');
  });
});

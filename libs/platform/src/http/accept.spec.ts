import { describe, expect, it } from '@jest/globals';
import { checkAccept, checkContentType, preferredType } from './accept.js';

describe('the Accept rule', () => {
  it.each([
    undefined,
    '',
    'application/json',
    '*/*',
    'application/x.uvol.v3+json',
    'text/html, application/json;q=0.9',
    'application/*',
  ])('serves %p', (accept) => expect(checkAccept(accept)).toBeNull());

  it('refuses another version of the vendor type with 400', () => {
    expect(checkAccept('application/x.uvol.v9+json')).toEqual({
      status: 400,
      body: { message: expect.stringMatching(/version 9 is not supported/), status_code: 400 },
    });
  });

  it('serves when another acceptable type is listed beside a wrong version', () => {
    expect(checkAccept('application/x.uvol.v9+json, application/json')).toBeNull();
  });

  it('refuses types we never produce with 406', () => {
    expect(checkAccept('text/html')?.status).toBe(406);
    expect(checkAccept('application/xml')?.status).toBe(406);
    expect(checkAccept('text/csv')?.status).toBe(406);
  });

  it('takes q=0 as a refusal of that type', () => {
    expect(checkAccept('application/json;q=0, text/html')?.status).toBe(406);
    expect(checkAccept('application/json; q=0.5')).toBeNull();
  });
});

describe('the Accept rule on a route producing CSV (@RouteConfig({ produces: [text/csv] }))', () => {
  const csv = { config: { produces: ['text/csv'] } };

  it.each([
    undefined,
    '',
    'text/csv',
    'text/csv; charset=utf-8',
    '*/*',
    'text/*',
    'application/json, text/csv;q=0.5',
    'TEXT/CSV',
  ])('serves %p', (accept) => expect(checkAccept(accept, csv)).toBeNull());

  it('refuses a list naming only JSON, or only other types, with 406 naming text/csv', () => {
    for (const accept of [
      'application/json',
      'application/x.uvol.v3+json',
      'application/*',
      'text/html',
      'text/csv;q=0',
    ]) {
      expect(checkAccept(accept, csv)).toEqual({
        status: 406,
        body: { message: 'This route produces text/csv only.', status_code: 406 },
      });
    }
  });

  it('still refuses another API version with 400', () => {
    expect(checkAccept('application/x.uvol.v9+json', csv)?.status).toBe(400);
  });

  it('leaves routes without produces to the JSON rule', () => {
    expect(checkAccept('application/json', { config: {} })).toBeNull();
    expect(checkAccept('text/csv', { config: { url: '/api/claims' } })?.status).toBe(406);
  });
});

describe('the request body type', () => {
  it('lets JSON, multipart and body-less requests through', () => {
    expect(checkContentType({ 'content-length': '2', 'content-type': 'application/json; charset=utf-8' })).toBeNull();
    expect(
      checkContentType({ 'transfer-encoding': 'chunked', 'content-type': 'multipart/form-data; boundary=x' }),
    ).toBeNull();
    expect(checkContentType({})).toBeNull();
    expect(checkContentType({ 'content-length': '0', 'content-type': 'text/plain' })).toBeNull();
  });

  it('refuses any other body with 400', () => {
    expect(checkContentType({ 'content-length': '6', 'content-type': 'text/plain' })?.status).toBe(400);
    expect(checkContentType({ 'content-length': '6' })?.status).toBe(400);
    expect(checkContentType({ 'content-length': '6', 'content-type': 'application/jsonx' })?.status).toBe(400);
  });

  it.each(['utf-16', 'latin1', 'ISO-8859-1', '"utf-16le"', ''])('refuses JSON in charset %s with 400', (charset) => {
    const refusal = checkContentType({ 'content-length': '2', 'content-type': `application/json; charset=${charset}` });
    expect(refusal).toEqual({
      status: 400,
      body: expect.objectContaining({ message: expect.stringMatching(/UTF-8/) }),
    });
  });

  it.each(['utf-8', 'UTF-8', 'utf8', '"utf-8"'])('takes JSON in charset %s', (charset) => {
    expect(
      checkContentType({ 'content-length': '2', 'content-type': `application/json;charset=${charset}` }),
    ).toBeNull();
  });
});

describe('preferredType', () => {
  const both = ['application/json', 'text/csv'];
  it('answers the first produced type without an Accept, for */* and for JSON', () => {
    for (const header of [undefined, '', '*/*', 'application/json', 'application/x.uvol.v3+json', 'application/*'])
      expect([header, preferredType(header, both)]).toEqual([header, 'application/json']);
  });

  it('answers CSV for text/csv or text/*, and takes the entries by q then in order', () => {
    expect(preferredType('text/csv', both)).toBe('text/csv');
    expect(preferredType('text/*', both)).toBe('text/csv');
    expect(preferredType('text/csv, application/json', both)).toBe('text/csv');
    expect(preferredType('application/json;q=0.5, text/csv', both)).toBe('text/csv');
    expect(preferredType('text/csv;q=0.2, */*;q=0.8', both)).toBe('application/json');
    expect(preferredType('text/csv;q=0, */*', both)).toBe('application/json');
  });
});

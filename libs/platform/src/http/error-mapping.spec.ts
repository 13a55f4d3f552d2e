import { describe, expect, it } from '@jest/globals';
import { BadRequestException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { ConflictError, DomainError, NotFoundError, ValidationError } from '../errors/domain-error.js';
import { mapError } from './error-mapping.js';

describe('mapError', () => {
  it.each([
    [new NotFoundError('Claim'), 404, 'Claim not found'],
    [new ConflictError('A claimed expense cannot be changed.'), 409, 'A claimed expense cannot be changed.'],
    [new DomainError('rate_limited', 'Too many attempts.'), 429, 'Too many attempts.'],
    [new DomainError('unauthorized', 'Unauthenticated.'), 401, 'Unauthenticated.'],
  ])('maps %p to %p', (err, status, message) => {
    expect(mapError(err)).toEqual({ status, body: { message, status_code: status }, unexpected: false });
  });

  it('carries the field errors of a 422', () => {
    expect(mapError(new ValidationError({ 'type.id': ['The type.id field is required.'] })).body).toEqual({
      message: 'The given data was invalid.',
      status_code: 422,
      errors: { 'type.id': ['The type.id field is required.'] },
    });
  });

  it('maps Nest HTTP exceptions with their message', () => {
    expect(mapError(new NotFoundException('Cannot GET /api/x')).body).toEqual({
      message: 'Cannot GET /api/x',
      status_code: 404,
    });
    expect(mapError(new BadRequestException()).status).toBe(400);
    expect(mapError(new PayloadTooLargeException()).status).toBe(413);
  });

  it('maps Fastify body errors to 400 and 413', () => {
    expect(
      mapError(Object.assign(new SyntaxError('x'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 })).body,
    ).toEqual({
      message: 'Malformed JSON body.',
      status_code: 400,
    });
    expect(mapError({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }).status).toBe(400);
    expect(mapError({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }).status).toBe(413);
  });

  it('hides an unexpected error behind a bare 500 and flags it for the log', () => {
    const mapped = mapError(new TypeError('secret detail'));
    expect(mapped).toEqual({ status: 500, body: { message: 'Server error.', status_code: 500 }, unexpected: true });
  });
});

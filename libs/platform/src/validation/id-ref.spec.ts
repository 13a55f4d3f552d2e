import { describe, expect, it } from '@jest/globals';
import { plainToInstance } from 'class-transformer';
import { IsOptional, validateSync } from 'class-validator';
import { fieldErrors } from '../http/validation.js';
import { IsOptionalNotNull } from './not-null.js';
import { type IdRef, isIdRef, isPositiveId, IsReference } from './id-ref.js';

describe('isPositiveId and isIdRef', () => {
  it('takes whole numbers from 1 that JavaScript holds exactly', () => {
    for (const id of [1, 42, Number.MAX_SAFE_INTEGER]) expect(isPositiveId(id)).toBe(true);
    for (const id of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, '1', null, undefined, NaN, Infinity])
      expect(isPositiveId(id)).toBe(false);
  });

  it('takes an object with a positive id and nothing else', () => {
    expect(isIdRef({ id: 4 })).toBe(true);
    for (const ref of [{ id: null }, { id: 0 }, { id: '4' }, {}, { id: 4, x: 1 }, [{ id: 4 }], null, 4])
      expect(isIdRef(ref)).toBe(false);
  });
});

describe('@IsReference() with @IsOptionalNotNull() / @IsOptional()', () => {
  class Body {
    @IsOptionalNotNull() @IsReference() type?: IdRef;
    @IsOptional() @IsReference() rate?: IdRef | null;
    @IsOptional() @IsReference({ each: true }) expenses?: IdRef[];
  }
  const errors = (plain: object) => fieldErrors(validateSync(plainToInstance(Body, plain)));

  it('accepts references, and null only where the field is nullable', () => {
    expect(errors({ type: { id: 1 }, rate: null, expenses: [{ id: 2 }, { id: 3 }] })).toEqual({});
    expect(errors({})).toEqual({});
    expect(errors({ type: null })).toEqual({ type: ['The type field must not be null.'] });
  });

  it('refuses an array or a scalar where one reference is expected, and a bad id inside', () => {
    expect(Object.keys(errors({ type: [{ id: 1 }], rate: [{ id: 1 }] })).sort()).toEqual(['rate', 'type']);
    expect(Object.keys(errors({ type: 1, rate: 'x' })).sort()).toEqual(['rate', 'type']);
    expect(errors({ type: { id: null } })).toEqual({ 'type.id': ['The type.id field must not be null.'] });
    expect(Object.keys(errors({ type: { id: 0 }, expenses: [{ id: 1 }, { id: -2 }, [{ id: 3 }]] })).sort()).toEqual([
      'expenses',
      'expenses.1.id',
      'type.id',
    ]);
  });
});

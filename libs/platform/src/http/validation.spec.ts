import { describe, expect, it } from '@jest/globals';
import type { ArgumentMetadata } from '@nestjs/common';
import { IsEmail, IsInt, IsNotEmpty, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { DomainError, ValidationError } from '../errors/domain-error.js';
import { IsDecimal } from '../validation/decimal.js';
import { IsReference, type IdRef } from '../validation/id-ref.js';
import { IsOptionalNotNull } from '../validation/not-null.js';
import { PageQuery } from './query-dto.js';
import { validationPipe } from './validation.js';

class NameBody {
  @IsOptionalNotNull() @IsString() name?: string;
}

/** Fields that break several rules at once, as the real bodies declare them. */
class ManyRulesBody {
  @IsEmail() @MaxLength(254) email!: string;
  @IsString() @MinLength(1) @MaxLength(1024) password!: string;
  @IsOptionalNotNull() @IsDecimal(2) @Min(0) @Max(1_000_000) amount?: number;
  @IsOptionalNotNull() @IsInt() @Min(0) @Max(99) position?: number;
  @IsOptionalNotNull() @IsString() @IsNotEmpty() @MaxLength(5) name?: string;
  @IsOptionalNotNull() @IsReference() type?: IdRef;
}
const MANY_OK = { email: 'a@b.example', password: 'secret' };

const body = (metatype: ArgumentMetadata['metatype'] = NameBody): ArgumentMetadata => ({ type: 'body', metatype });
const query: ArgumentMetadata = { type: 'query', metatype: Object };

async function refusal(value: unknown, metadata: ArgumentMetadata): Promise<DomainError> {
  const err = await validationPipe()
    .transform(value, metadata)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  if (!(err instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(err)}`);
  return err;
}

describe('the global validation pipe', () => {
  it('builds a query DTO with its fromQuery: typed values, unknown parameters ignored, a bad one a 422', async () => {
    const page: ArgumentMetadata = { type: 'query', metatype: PageQuery };
    await expect(validationPipe().transform({ page: '2', limit: '5', other: 'x' }, page)).resolves.toEqual({
      page: 2,
      perPage: 5,
    });
    const err = await refusal({ page: '0', s: 'name' }, page);
    expect(err.errors).toEqual({
      page: ['The page field must be a positive integer.'],
      s: ['This list cannot be sorted by s.'],
    });
    // Unstorable text is refused before fromQuery reads anything.
    expect(Object.keys((await refusal({ page: '0', q: '\u0000' }, page)).errors!)).toEqual(['q']);
  });

  it('answers 400 when a whole-body parameter has no body, with a DTO or without one', async () => {
    for (const metatype of [NameBody, Object]) {
      for (const value of [undefined, null])
        expect(await refusal(value, body(metatype))).toMatchObject({
          code: 'bad_request',
          message: 'A JSON object body is required.',
        });
    }
  });

  it('leaves a missing single field of the body, and other parameters, to their own rules', async () => {
    await expect(
      validationPipe().transform(undefined, { type: 'body', metatype: String, data: 'name' }),
    ).resolves.toBeUndefined();
    await expect(validationPipe().transform(undefined, { type: 'custom', metatype: Object })).resolves.toBeUndefined();
  });

  it('refuses unstorable text anywhere in a body or query, DTO or not, naming the field', async () => {
    const err = await refusal({ name: 'x\u0000' }, body());
    expect(err).toBeInstanceOf(ValidationError);
    expect(Object.keys(err.errors!)).toEqual(['name']);
    expect(Object.keys((await refusal({ a: { b: ['\ud800'] } }, body(Object))).errors!)).toEqual(['a.b.0']);
    expect(Object.keys((await refusal({ from: '\u0000' }, query)).errors!)).toEqual(['from']);
  });

  it('names a null for a field that may be absent but not null', async () => {
    expect((await refusal({ name: null }, body())).errors).toEqual({ name: ['The name field must not be null.'] });
    await expect(validationPipe().transform({ name: 'Taxi 🚕' }, body())).resolves.toEqual({ name: 'Taxi 🚕' });
  });

  describe('one message a field: the most basic rule it breaks', () => {
    const errorsOf = async (value: object) => (await refusal(value, body(ManyRulesBody))).errors;

    it('names the type, not the ranges, for a word where a number belongs', async () => {
      expect(await errorsOf({ ...MANY_OK, amount: 'twelve' })).toEqual({
        amount: ['The amount field must be a number with at most 2 decimal places.'],
      });
      expect(await errorsOf({ ...MANY_OK, position: 'first' })).toEqual({
        position: ['position must be an integer number'],
      });
      expect(await errorsOf({ ...MANY_OK, email: 3 })).toEqual({ email: ['email must be an email'] });
      expect(await errorsOf({ ...MANY_OK, type: 'x' })).toEqual({
        type: ['The type field must be an object { "id": … }.'],
      });
    });

    it('names the one range or format rule broken by a value of the right type', async () => {
      expect(await errorsOf({ ...MANY_OK, amount: -1 })).toEqual({ amount: ['amount must not be less than 0'] });
      expect(await errorsOf({ ...MANY_OK, amount: -1.234 })).toEqual({
        amount: ['The amount field must be a number with at most 2 decimal places.'],
      });
      expect(await errorsOf({ ...MANY_OK, name: '' })).toEqual({ name: ['name should not be empty'] });
      expect(await errorsOf({ ...MANY_OK, name: 'too long' })).toEqual({
        name: ['name must be shorter than or equal to 5 characters'],
      });
    });

    it('says a missing required field is required, a nested one too', async () => {
      expect(await errorsOf({})).toEqual({
        email: ['The email field is required.'],
        password: ['The password field is required.'],
      });
      expect(await errorsOf({ ...MANY_OK, type: {} })).toEqual({ 'type.id': ['The type.id field is required.'] });
    });

    it('keeps "must not be null" for a null, required or optional', async () => {
      expect(await errorsOf({ email: null, password: 'secret', amount: null })).toEqual({
        email: ['The email field must not be null.'],
        amount: ['The amount field must not be null.'],
      });
    });

    it('names an unknown field as such, whatever its value', async () => {
      expect(await errorsOf({ ...MANY_OK, bogus: null })).toEqual({ bogus: ['property bogus should not exist'] });
    });
  });
});

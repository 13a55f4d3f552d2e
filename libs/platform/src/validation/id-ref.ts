import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, ValidateBy, ValidateNested, type ValidationOptions } from 'class-validator';

/** An id as bodies carry it: a whole number from 1 that JavaScript holds exactly (PostgreSQL bigint holds more). */
export function isPositiveId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/** A reference `{ "id": n }`: an object (not an array, not null) with a positive id and nothing else. */
export function isIdRef(value: unknown): value is { id: number } {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'id' && isPositiveId((value as { id: unknown }).id);
}

/** class-validator: see isPositiveId. */
export function IsPositiveId(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPositiveId',
      validator: {
        validate: (value) => isPositiveId(value),
        defaultMessage: (args) => `The ${args!.property} field must be a positive whole number.`,
      },
    },
    options,
  );
}

/** The `{ id }` reference of request bodies (an expense's type, a claim's expenses, an organisation's logo). */
export class IdRef {
  @ApiProperty({ minimum: 1 }) @IsPositiveId() id!: number;
}

/**
 * class-validator: the property is a reference `{ id }`, validated as an IdRef. An array or a
 * scalar is refused: @ValidateNested alone validates each element of an array, so
 * `"rate": [{ "id": 1 }]` would pass and be read as no rate. With `each`, every element of an
 * array property is such a reference. Nullability and presence are the other decorators' business.
 */
export function IsReference(options?: ValidationOptions): PropertyDecorator {
  return (target, key) => {
    IsObject({
      ...options,
      message: (args) =>
        `The ${args.property} field must be an object { "id": … }${options?.each ? ' in each element' : ''}.`,
    })(target, key);
    ValidateNested(options)(target, key);
    Type(() => IdRef)(target, key);
  };
}

import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * A finite number with at most `places` decimal places. class-validator's
 * `@IsNumber({ maxDecimalPlaces })` reads the places from `toString()` and throws on the
 * exponent form (`7e-323`, `1e-7`), which answered a 500; this rounds to the places instead and
 * compares, so any double is either accepted or refused.
 */
export function isDecimal(value: unknown, places: number): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  const scale = 10 ** places;
  const scaled = value * scale;
  // Within a relative epsilon of a whole number of units of the last place: binary noise such as
  // 0.1 + 0.2 passes, a tiny value such as 7e-323 (far below the last place) does not.
  return Math.abs(scaled - Math.round(scaled)) <= Math.abs(scaled) * Number.EPSILON * 4;
}

export function IsDecimal(places: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDecimal',
      constraints: [places],
      validator: {
        validate: (value) => isDecimal(value, places),
        defaultMessage: (args) => `The ${args!.property} field must be a number with at most ${places} decimal places.`,
      },
    },
    options,
  );
}

import { ValidateBy, ValidateIf, type ValidationOptions } from 'class-validator';

export const notNullMessage = (field: string) => `The ${field} field must not be null.`;

/**
 * An optional field that is not nullable: skipped when absent, a 422 "must not be null" when
 * null. class-validator's @IsOptional() skips null as well, so it is only for nullable fields.
 */
export function IsOptionalNotNull(options?: ValidationOptions): PropertyDecorator {
  return (target, key) => {
    ValidateIf((_, value) => value !== undefined, options)(target, key);
    ValidateBy(
      {
        name: 'isNotNull',
        validator: { validate: (value) => value !== null, defaultMessage: (args) => notNullMessage(args!.property) },
      },
      options,
    )(target, key);
  };
}

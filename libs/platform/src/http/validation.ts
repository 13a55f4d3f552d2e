import { ValidationPipe, type ValidationError as ClassValidatorError } from '@nestjs/common';
import { type FieldErrors, ValidationError } from '../errors/domain-error.js';

/** Flattens class-validator's tree to `{ "type.id": ["…"] }`. */
export function fieldErrors(errors: ClassValidatorError[], prefix = ''): FieldErrors {
  const out: FieldErrors = {};
  for (const e of errors) {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    if (e.constraints) out[path] = Object.values(e.constraints);
    Object.assign(out, fieldErrors(e.children ?? [], path));
  }
  return out;
}

/** Declarative DTO validation; unknown fields are refused, every bad field named in one 422. */
export function validationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => new ValidationError(fieldErrors(errors)),
  });
}

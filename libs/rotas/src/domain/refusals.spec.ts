import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '#app/platform';
import { refusal, throwIfRefused, toFieldErrors } from './refusals.js';

describe('refusals', () => {
  it('given two refusals of one field and one of another, then the errors hold the first message of each field', () => {
    const errors = toFieldErrors([
      refusal('pattern.0.max', 'first'),
      refusal('pattern.0.max', 'second'),
      refusal('name', 'third'),
    ]);
    expect(errors).toEqual({ 'pattern.0.max': ['first'], name: ['third'] });
  });

  it('given no refusal, then throwIfRefused returns; given some, then it throws a ValidationError naming them all', () => {
    expect(() => throwIfRefused([])).not.toThrow();
    let thrown: unknown;
    try {
      throwIfRefused([refusal('a', 'x'), refusal('b.0', 'y')]);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).errors).toEqual({ a: ['x'], 'b.0': ['y'] });
  });
});

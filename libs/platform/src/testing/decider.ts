/**
 * Deciders: the one shape of a write decision.
 *
 * An aggregate's folder holds its events, `evolve(state | null, event) → state | null` (the fold of
 * its stream, null before it exists) and, per command, a pure `decide<Command>(state | null, command,
 * context?) → events`. `command` is what the caller asked, with who asks; `context` is what the
 * handler looked up outside the stream (the clock, permissions, settings, other streams' states).
 * No change is `[]`. A refusal throws a DomainError (ValidationError, ForbiddenError, ConflictError,
 * NotFoundError, DomainError('unauthorized')); one that must still record events throws a
 * RecordedRefusal carrying them. The command handler loads, calls decide and appends what it returns.
 * Specs: testDecider({ evolve, decide }).given(events).when(command, context)
 *   .then(events) | .thenThrows(ErrorClass, message | /pattern/ | fieldErrors | ['field', ...], recorded?)
 */
import { AssertionError, deepStrictEqual, match, strictEqual } from 'node:assert/strict';
import { type FieldErrors, RecordedRefusal } from '../errors/domain-error.js';

export interface Decider<S, C, E, X = undefined> {
  readonly evolve: (state: S | null, event: E) => S | null;
  readonly decide: (state: S | null, command: C, context: X) => E[];
  /** The state before the first event; null unless the aggregate says otherwise. */
  readonly initialState?: S | null;
}

/** What a refusal is expected to say: its message (exact or a pattern), its field errors, or just the fields they name. */
export type ExpectedRefusal = string | RegExp | FieldErrors | readonly string[];

export interface Decision<E> {
  /** Asserts that the decision is exactly these events, in this order (`[]`: nothing changes). */
  then(expected: readonly E[]): void;
  /** Asserts a refusal of this class (and message or field errors); `recorded` is what a RecordedRefusal records. Returns the error. */
  thenThrows<T extends Error>(
    errorClass: new (...args: never[]) => T,
    expected?: ExpectedRefusal,
    recorded?: readonly E[],
  ): T;
}

type WhenArgs<C, X> = undefined extends X ? [command: C, context?: X] : [command: C, context: X];

/** given(events).when(command, context).then(events) | .thenThrows(…), checked with node:assert (no test framework needed). */
export function testDecider<S, C, E, X = undefined>(decider: Decider<S, C, E, X>) {
  return {
    given(events: readonly E[]) {
      return {
        when(...[command, context]: WhenArgs<C, X>): Decision<E> {
          const run = () =>
            decider.decide(events.reduce(decider.evolve, decider.initialState ?? null), command, context as X);
          return {
            then(expected) {
              // Outcomes are synchronous; awaiting one would call this with a resolve function.
              if (typeof expected === 'function')
                throw new TypeError('A decision is synchronous: call .then(events), do not await it.');
              let actual: E[];
              try {
                actual = run();
              } catch (err) {
                throw new AssertionError({
                  message: `Expected events, but decide threw ${describeError(err)}`,
                  actual: err,
                  expected,
                });
              }
              deepStrictEqual(actual, [...expected]);
            },
            thenThrows(errorClass, expected, recorded) {
              let events: E[];
              try {
                events = run();
              } catch (err) {
                if (!(err instanceof errorClass))
                  throw new AssertionError({
                    message: `Expected ${errorClass.name}, but decide threw ${describeError(err)}`,
                    actual: err,
                    expected: errorClass,
                  });
                checkRefusal(err, expected, recorded);
                return err;
              }
              throw new AssertionError({
                message: `Expected ${errorClass.name}, but decide returned events`,
                actual: events,
                expected: errorClass,
              });
            },
          };
        },
      };
    },
  };
}

function checkRefusal(
  err: Error,
  expected: ExpectedRefusal | undefined,
  recorded: readonly unknown[] | undefined,
): void {
  const errors = (err as { errors?: FieldErrors }).errors;
  if (typeof expected === 'string') strictEqual(err.message, expected);
  else if (expected instanceof RegExp) match(err.message, expected);
  else if (Array.isArray(expected))
    deepStrictEqual(Object.keys(errors ?? {}).sort(), [...expected].sort(), 'the fields named by the refusal');
  else if (expected) deepStrictEqual(errors, expected);
  if (err instanceof RecordedRefusal) {
    if (!recorded)
      throw new AssertionError({
        message: `The refusal records events; name them: ${JSON.stringify(err.events)}`,
        actual: err.events,
        expected: recorded,
      });
    deepStrictEqual([...err.events], [...recorded], 'the events the refusal records');
  } else if (recorded) {
    throw new AssertionError({
      message: 'Expected the refusal to record events, but it records none',
      actual: [],
      expected: recorded,
    });
  }
}

const describeError = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));

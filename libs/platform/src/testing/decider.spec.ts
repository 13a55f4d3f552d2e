import { AssertionError } from 'node:assert';
import { describe, expect, it } from '@jest/globals';
import { ConflictError, DomainError, RecordedRefusal, ValidationError } from '../errors/domain-error.js';
import { testDecider } from './decider.js';

// A counter that may not pass 2: increments below it, a 422 at it, and a recorded refusal after a reset to -1.
type Event = { type: 'Incremented' } | { type: 'Reset' } | { type: 'Refused' };
type State = { n: number };
const evolve = (s: State | null, e: Event): State =>
  e.type === 'Incremented' ? { n: (s?.n ?? 0) + 1 } : e.type === 'Reset' ? { n: -1 } : (s ?? { n: 0 });
const decide = (s: State | null, cmd: { by: number }, ctx?: { max: number }): Event[] => {
  const n = s?.n ?? 0;
  if (n < 0) throw new RecordedRefusal('conflict', 'reset', [{ type: 'Refused' }]);
  if (n + cmd.by > (ctx?.max ?? 2)) throw new ValidationError({ by: ['too many'] });
  return Array.from({ length: cmd.by }, () => ({ type: 'Incremented' }) as const);
};
const counter = testDecider({ evolve, decide });

describe('the decider test helper', () => {
  it('given events, when a command, then it compares the events decided', () => {
    counter
      .given([{ type: 'Incremented' }])
      .when({ by: 1 })
      .then([{ type: 'Incremented' }]);
    counter.given([]).when({ by: 0 }).then([]);
    expect(() => counter.given([]).when({ by: 1 }).then([])).toThrow(AssertionError);
  });

  it('given a refusal, then thenThrows checks its class, message, field errors or the fields named, and returns it', () => {
    const err = counter
      .given([{ type: 'Incremented' }])
      .when({ by: 2 })
      .thenThrows(ValidationError, { by: ['too many'] });
    expect(err).toBeInstanceOf(ValidationError);
    counter.given([]).when({ by: 3 }).thenThrows(ValidationError, ['by']);
    counter.given([]).when({ by: 3 }).thenThrows(DomainError, 'The given data was invalid.');
    counter
      .given([])
      .when({ by: 3 })
      .thenThrows(ValidationError, /invalid/);
    expect(() => counter.given([]).when({ by: 3 }).thenThrows(ConflictError)).toThrow(AssertionError);
    expect(() => counter.given([]).when({ by: 3 }).thenThrows(ValidationError, ['other'])).toThrow(AssertionError);
    expect(() => counter.given([]).when({ by: 3 }).thenThrows(ValidationError, 'another message')).toThrow(
      AssertionError,
    );
    expect(() => counter.given([]).when({ by: 1 }).thenThrows(ValidationError)).toThrow(/returned events/);
    expect(() => counter.given([]).when({ by: 3 }).then([])).toThrow(/decide threw ValidationError/);
  });

  it('given a context, then decide gets it', () => {
    counter
      .given([])
      .when({ by: 3 }, { max: 3 })
      .then([{ type: 'Incremented' }, { type: 'Incremented' }, { type: 'Incremented' }]);
  });

  it('given a refusal that records events, then they must be named, and are compared', () => {
    counter
      .given([{ type: 'Reset' }])
      .when({ by: 1 })
      .thenThrows(RecordedRefusal, 'reset', [{ type: 'Refused' }]);
    expect(() =>
      counter
        .given([{ type: 'Reset' }])
        .when({ by: 1 })
        .thenThrows(RecordedRefusal, 'reset'),
    ).toThrow(/records events/);
    expect(() =>
      counter
        .given([{ type: 'Reset' }])
        .when({ by: 1 })
        .thenThrows(RecordedRefusal, 'reset', []),
    ).toThrow(AssertionError);
    expect(() =>
      counter
        .given([])
        .when({ by: 3 })
        .thenThrows(ValidationError, ['by'], [{ type: 'Refused' }]),
    ).toThrow(/records none/);
  });

  it('given initialState, then the events fold from it', () => {
    testDecider({ evolve, decide, initialState: { n: 2 } })
      .given([])
      .when({ by: 1 })
      .thenThrows(ValidationError);
  });

  it('refuses to be awaited: a decision is synchronous', async () => {
    const decision: unknown = counter.given([]).when({ by: 1 });
    await expect((async () => await decision)()).rejects.toThrow(/synchronous/);
  });
});

import { ConflictError } from '#app/platform';

/** A lost optimistic-concurrency race: the stream moved since the caller read it. */
export class ConcurrencyError extends ConflictError {
  constructor(
    readonly streamId: string,
    readonly expected: string,
  ) {
    super('The record was changed by another request; reload it and try again.');
  }
}

import { NotFoundError } from '../errors/domain-error.js';

/** An id from the path: anything that is not a positive integer names nothing, so it is a 404 like an unknown id. */
export function pathId(raw: string, what: string): number {
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new NotFoundError(what);
  return id;
}

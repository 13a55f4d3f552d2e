/**
 * Advisory-lock keys. Appends hold PROJECTIONS shared for their transaction; a replay takes it
 * exclusively only for its final catch-up and table swap, so writers pause for that moment alone.
 */
export const LOCKS = {
  projections: `hashtextextended('event-store:projections', 0)`,
  replay: `hashtextextended('event-store:replay', 0)`,
  reactor: (param: string) => `hashtextextended('event-store:reactor:' || ${param}, 0)`,
  /** Held by an append at version 'any' while it reads the stream's version and appends after it. */
  stream: (param: string) => `hashtextextended('event-store:stream:' || ${param}, 0)`,
} as const;

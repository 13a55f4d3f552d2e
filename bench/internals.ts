/**
 * The event store's internals that the replay profile needs, and that its index (rightly) does
 * not export. This is the bench's only path into libs/: the profile is a white-box measurement
 * of the library, not a consumer of it (eslint.config.js lets this one file import by path). The write-path bench builds a second EventStore from its parts. The headline figures (append, replay) use the public
 * #app/event-store API only.
 */
export { EVENT_COLUMNS, type EventRow, toStoredEvent } from '../libs/event-store/src/event-rows.js';
export { ColumnTypes, OpsWriter } from '../libs/event-store/src/ops-writer.js';
export { InlineProjections } from '../libs/event-store/src/inline-projections.js';
// The store's transactional writes, which domain code does not get (docs/adr/0005): the "before" paths measured beside handle.
export { storeInternals } from '../libs/event-store/src/event-store.js';

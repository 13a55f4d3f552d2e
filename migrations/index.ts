import { EventStore1763700000000 } from './1763700000000-event-store.js';

/** Every migration in order; each app hands this list to the database module. */
export const migrations = [EventStore1763700000000];

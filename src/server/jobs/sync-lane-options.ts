import type { Logger } from 'pino';
import type { Database } from '#server/db/client.ts';
import { USER_SYNC_QUEUE } from './queue-jobs.ts';
import type { SyncLaneOptions } from './sync-lanes.ts';

/**
 * Sync runs one process works at once: at least four lanes, more while none is starved for work (up
 * to the `maxSyncRuns` option), two starved ones kept beside the others (sync-lanes.ts). Each lane
 * fetches its next job as soon as a run ends.
 */
const MIN_SYNC_LANES = 4;
const SPARE_SYNC_LANES = 2;
/**
 * The event loop's busy share below which another lane may open, and above which lanes close as runs
 * end: between the two the lanes hold, so their number settles instead of swinging.
 */
const LANES_OPEN_BELOW_LOAD = 0.7;
const LANES_CLOSE_ABOVE_LOAD = 0.9;
/**
 * Statements waiting for a connection, per connection of the pool, up to which another lane may open:
 * a statement waiting behind one other per connection costs a millisecond or two against runs of
 * hundreds; deeper, the pool is what limits runs, and more of them at once only queue there.
 */
const LANES_OPEN_WHILE_WAITING_PER_CONNECTION = 1;

/** How this process's sync lanes open and close, from the queue's options and the database's pool. */
export function syncLaneOptions(
  settings: {
    /** The most sync runs this process keeps in flight (at least 4). */
    maxSyncRuns: number;
    pollingIntervalSeconds: number;
    /** Whether lanes stop opening while the event loop is busy (decision 024). */
    bounded: boolean;
    /** How busy the process's event loop is now (0–1). */
    loopLoad: () => number;
    log: Logger;
  },
  database: Database,
): SyncLaneOptions {
  return {
    queue: USER_SYNC_QUEUE,
    min: MIN_SYNC_LANES,
    max: Math.max(MIN_SYNC_LANES, settings.maxSyncRuns),
    spare: SPARE_SYNC_LANES,
    pollingIntervalSeconds: settings.pollingIntervalSeconds,
    onOpenFailed: (error) => settings.log.warn({ err: error }, 'could not open another sync lane'),
    loopLoad: settings.loopLoad,
    // Unbounded: a load of 1 never stops a lane from opening, nor closes one.
    openBelow: settings.bounded ? LANES_OPEN_BELOW_LOAD : Number.POSITIVE_INFINITY,
    closeAbove: settings.bounded ? LANES_CLOSE_ABOVE_LOAD : Number.POSITIVE_INFINITY,
    connectionsWaiting: database.connections.waiting,
    openWhileWaiting: database.connections.size * LANES_OPEN_WHILE_WAITING_PER_CONNECTION,
  };
}

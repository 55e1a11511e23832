import type { App } from '#server/app.ts';
import type { WindowStats } from './protocol.ts';
import { distribution, now } from './stats.ts';

/** Every 50 ms: runs in flight and lanes open, and statements waiting for a database connection. */
type ConcurrencySample = { at: number; runs: number; lanes: number; waiting: number };

/** Samples the app's sync concurrency from now on, for the windows the benchmark asks about. */
export function sampleConcurrency(app: Pick<App, 'sync' | 'database'>) {
  const concurrency: ConcurrencySample[] = [];
  setInterval(() => {
    const lanes = app.sync.queue.syncLanes();
    concurrency.push({
      at: now(),
      runs: lanes.busy,
      lanes: lanes.open,
      waiting: app.database.connections.waiting(),
    });
  }, 50).unref();
  return {
    within(from: number, to: number): WindowStats['concurrency'] {
      const samples = concurrency.filter((sample) => sample.at >= from && sample.at <= to);
      return {
        runs: distribution(samples.map((sample) => sample.runs)),
        lanes: distribution(samples.map((sample) => sample.lanes)),
        waitingForConnection: distribution(samples.map((sample) => sample.waiting)),
      };
    },
  };
}

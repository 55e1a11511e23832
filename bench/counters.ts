import { ownRequests } from './actors.ts';
import { type Bench, emulatorRequests } from './processes.ts';
import { log } from './report.ts';
import { now } from './stats.ts';

/**
 * Starts a check of the app's observed provider calls against the emulators' own counters: what the
 * emulators counted from now on, less the benchmark's own requests, is what the app sent.
 */
export async function startCounterCheck(bench: Bench) {
  const countersBefore = await emulatorRequests(bench.origins);
  const ownBefore = { ...ownRequests };
  const windowStart = now();
  /** Prints whether the two agree for the calls since the check started. */
  return async () => {
    const windowEnd = now();
    const appInWindow = await bench.host.call('window', { from: windowStart, to: windowEnd });
    const countersAfter = await emulatorRequests(bench.origins);
    const counterCheck = (['todoist', 'calendar'] as const).map((side) => {
      const counted = countersAfter[side] - countersBefore[side];
      const own = ownRequests[side] - ownBefore[side];
      const provider = side === 'calendar' ? bench.options.calendar : side;
      return { provider, counted, own, app: counted - own, observed: appInWindow.appRequests[side] };
    });
    log(
      `  emulator counters vs the app's observed calls: ${counterCheck
        .map(
          (entry) =>
            `${entry.provider} ${entry.counted} counted - ${entry.own} by the bench = ${entry.app} by the app` +
            ` (${entry.app === entry.observed ? 'matches' : `observed ${entry.observed}: MISMATCH`})`,
        )
        .join('; ')}`,
    );
  };
}

import type { Observer } from './observer.ts';
import type { WindowStats } from './protocol.ts';
import { countCalls } from './records-by-user.ts';
import { distribution } from './stats.ts';

/** What the app did in a window of the run, all users together: its calls, notifications and runs. */
export function windowStats(
  observer: Pick<Observer, 'requests' | 'runs' | 'served'>,
  concurrency: WindowStats['concurrency'],
  { from, to }: { from: number; to: number },
): WindowStats {
  const inWindow = (at: number) => at >= from && at <= to;
  const requests = observer.requests.filter((record) => inWindow(record.start));
  const runs = observer.runs.filter((run) => inWindow(run.start) && run.end !== null);
  return {
    appRequests: {
      todoist: requests.filter((record) => record.target === 'todoist').length,
      calendar: requests.filter((record) => record.target === 'calendar').length,
    },
    calls: countCalls(requests),
    served: distribution(
      observer.served
        .filter((entry) => inWindow(entry.start) && entry.path.startsWith('/api/webhooks/'))
        .map((entry) => entry.end - entry.start),
    ),
    runs: {
      total: runs.length,
      synced: runs.filter((run) => run.outcome === 'synced').length,
      retryLater: runs.filter((run) => run.outcome === 'retry-later').length,
      other: runs.filter((run) => run.outcome !== 'synced' && run.outcome !== 'retry-later').length,
      durations: distribution(
        runs.filter((run) => run.outcome === 'synced').map((run) => (run.end as number) - run.start),
      ),
    },
    concurrency,
  };
}

import type { Observer, RequestRecord, RunRecord } from './observer.ts';
import type { CallCounts } from './protocol.ts';

/**
 * The observer's requests and runs by user, for the host's questions about one user at a time. Records
 * are appended as they start; the new ones are indexed on each question (cheap, incremental).
 */
export function recordsByUser(observer: Pick<Observer, 'requests' | 'runs'>) {
  const requestsByUser = new Map<string, RequestRecord[]>();
  const runsByUser = new Map<string, RunRecord[]>();
  const remember = <T>(map: Map<string, T[]>, key: string | null, value: T) => {
    if (key === null) return;
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  let indexedRequests = 0;
  let indexedRuns = 0;
  function index() {
    for (; indexedRequests < observer.requests.length; indexedRequests++) {
      const record = observer.requests[indexedRequests] as RequestRecord;
      remember(requestsByUser, record.userId, record);
    }
    for (; indexedRuns < observer.runs.length; indexedRuns++) {
      const run = observer.runs[indexedRuns] as RunRecord;
      remember(runsByUser, run.userId, run);
    }
  }
  const requestsOf = (userId: string) => {
    index();
    return requestsByUser.get(userId) ?? [];
  };
  const runsOf = (userId: string) => {
    index();
    return runsByUser.get(userId) ?? [];
  };
  return {
    requestsOf,
    runsOf,
    /** The provider calls these runs of the user made. */
    callsOfRuns: (userId: string, runs: RunRecord[]) => {
      const ids = new Set(runs.map((run) => run.id));
      return countCalls(
        requestsOf(userId).filter((record) => record.runId !== null && ids.has(record.runId)),
      );
    },
    lastRunEnd: (userId: string) => {
      const runs = runsOf(userId);
      return runs.length === 0 ? 0 : Math.max(...runs.map((run) => run.end ?? Number.POSITIVE_INFINITY));
    },
  };
}

export type RecordsByUser = ReturnType<typeof recordsByUser>;

/**
 * The records from the first that started at `from` on: each user's records are appended as they
 * start, so a binary search finds it, and a change's observer (polled every 25–50 ms, for hundreds of
 * users at once) never scans the user's whole history in the app's process it measures.
 */
export function startingFrom<T extends { start: number }>(records: T[], from: number): T[] {
  let low = 0;
  let high = records.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((records[middle] as T).start < from) low = middle + 1;
    else high = middle;
  }
  return low === 0 ? records : records.slice(low);
}

const emptyCounts = (): CallCounts => ({
  todoistReads: 0,
  todoistWrites: 0,
  calendarReads: 0,
  calendarWrites: 0,
  other: 0,
});

/** The provider calls among these requests, by provider and kind. */
export function countCalls(records: Iterable<RequestRecord>): CallCounts {
  const counts = emptyCounts();
  for (const record of records) {
    if (record.target === 'todoist' && record.kind === 'read') counts.todoistReads += 1;
    else if (record.target === 'todoist' && record.kind === 'write') counts.todoistWrites += 1;
    else if (record.target === 'calendar' && record.kind === 'read') counts.calendarReads += 1;
    else if (record.target === 'calendar' && record.kind === 'write') counts.calendarWrites += 1;
    else if (record.target === 'todoist' || record.target === 'calendar') counts.other += 1;
  }
  return counts;
}

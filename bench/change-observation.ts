import type { RequestRecord } from './observer.ts';
import type { ChangeObservation, HostApi } from './protocol.ts';
import { type RecordsByUser, startingFrom } from './records-by-user.ts';
import { now, sleep } from './stats.ts';

/**
 * What the app did with one change a user made: when its write on the other side was answered, when
 * the echo of that write was handled and the user was idle again, and the runs and calls of each.
 */
export async function observeChange(
  records: RecordsByUser,
  idleUser: (userId: string) => Promise<boolean>,
  { userId, sentAt, side, timeoutMs, eventId }: Parameters<HostApi['observeChange']>[0],
): Promise<ChangeObservation> {
  const { requestsOf, runsOf, callsOfRuns } = records;
  const deadline = sentAt + timeoutMs;
  let write: RequestRecord | undefined;
  while (!write && now() < deadline) {
    write = startingFrom(requestsOf(userId), sentAt).find(
      (record) =>
        record.target === side &&
        record.kind === 'write' &&
        record.end !== null &&
        (eventId === undefined ||
          record.path.includes(encodeURIComponent(eventId)) ||
          record.path.includes(eventId)),
    );
    // The write's own end is the figure, not when it was seen: polling less often costs the measure
    // nothing, and spares the app's process the search (hundreds of users wait at once at scale).
    if (!write) await sleep(25);
  }
  const writtenAt = write?.end ?? null;
  let settledAt: number | null = null;
  let echoSeen = false;
  if (writtenAt !== null) {
    // The write's own notification comes back (the echo) and is handled by a later run.
    while (now() < deadline) {
      echoSeen = startingFrom(runsOf(userId), writtenAt).some(
        (run) => run.start > writtenAt && run.end !== null,
      );
      if (echoSeen && (await idleUser(userId))) {
        settledAt = now();
        break;
      }
      await sleep(50);
    }
  }
  const runs = runsOf(userId);
  const changeRuns = runs.filter((run) => run.start >= sentAt && run.start <= (writtenAt ?? deadline));
  const echoRuns =
    writtenAt === null
      ? []
      : runs.filter((run) => run.start > writtenAt && run.start <= (settledAt ?? deadline));
  return {
    writtenAt,
    settledAt,
    echoSeen,
    changeRuns: changeRuns.length,
    echoRuns: echoRuns.length,
    change: callsOfRuns(userId, changeRuns),
    echo: callsOfRuns(userId, echoRuns),
    timeline: runs
      .filter(
        (run) =>
          (run.end ?? Number.POSITIVE_INFINITY) >= sentAt - 3000 && run.start <= (writtenAt ?? deadline),
      )
      .map((run) => {
        const calls = callsOfRuns(userId, [run]);
        return {
          start: run.start,
          end: run.end,
          outcome: run.outcome,
          reads: { todoist: calls.todoistReads, calendar: calls.calendarReads },
        };
      }),
  };
}

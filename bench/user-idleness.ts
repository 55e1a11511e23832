import type { Observer } from './observer.ts';
import type { RecordsByUser } from './records-by-user.ts';
import { now, sleep } from './stats.ts';

/**
 * Whether users are idle: no run of theirs in flight or just ended, and no sync job of theirs waiting
 * or running in the queue (`queuedUsers`).
 */
export function userIdleness(
  observer: Pick<Observer, 'isRunning'>,
  records: Pick<RecordsByUser, 'lastRunEnd'>,
  queuedUsers: (userIds: string[]) => Promise<Set<string>>,
) {
  async function idle(userIds: string[], quietMs: number): Promise<boolean> {
    const at = now();
    for (const userId of userIds) {
      if (observer.isRunning(userId) || at - records.lastRunEnd(userId) < quietMs) return false;
    }
    return (await queuedUsers(userIds)).size === 0;
  }

  return {
    async idleUser(userId: string): Promise<boolean> {
      if (observer.isRunning(userId) || now() - records.lastRunEnd(userId) < 150) return false;
      return (await queuedUsers([userId])).size === 0;
    },

    async waitIdle({ userIds, timeoutMs }: { userIds: string[]; timeoutMs: number }) {
      const started = now();
      // Twice idle 300 ms apart: a notification on its way in has arrived by then (the benchmark also
      // asks the emulators whether any is still on its way).
      while (now() - started < timeoutMs) {
        if (await idle(userIds, 300)) {
          await sleep(300);
          if (await idle(userIds, 300)) return { idle: true, waitedMs: now() - started };
        }
        await sleep(100);
      }
      return { idle: false, waitedMs: now() - started };
    },
  };
}

import type { Clock } from '#server/domain/shared/clock.port.ts';
import { groupCommit } from '#server/jobs/group-commit.ts';
import type { JobQueue } from '#server/jobs/job-queue.ts';
import type { SyncHintRepository } from '../store/sync-hint.repository.ts';
import type { SyncSettingsReader } from '../store/sync-settings.repository.ts';
import type { SyncStateRepository } from '../store/sync-state.repository.ts';
import { BOTH_SIDES, type SyncSide } from '../sync-sides.ts';
import type { SyncChannels } from './sync-channels.ts';

/** Something that may have changed what a user's sync must do; its signature is already checked. */
export type SyncNotice =
  /** A Todoist webhook: the account it names, and the task whose recurring occurrence was completed. */
  | { source: 'todoist'; todoistUserId: string; completedOccurrence: string | null }
  /** A calendar push (Google channel, Graph subscription) or a Graph lifecycle notice. */
  | { source: 'calendar'; channelId: string; secret: string; lifecycle: boolean }
  /** Anything but a provider's notification: a setting, the switch, a payment. */
  | { source: 'app'; userId: string };

/** queued: its user's next run will read what it asks; ignored: not one of our users; rejected: forged. */
export type NoticeOutcome = 'queued' | 'ignored' | 'rejected';

export type NotificationIntake = { submit(notice: SyncNotice): Promise<NoticeOutcome> };

/**
 * Records notices before they are acknowledged: which sides each user's next run reads, and that run
 * in the queue. Notices arriving while a batch is written are written together as the next batch (group
 * commit), so a burst of a thousand webhooks costs a handful of statements per batch instead of three
 * or four per webhook, on one connection, and each webhook is answered once its batch is stored.
 */
export function createNotificationIntake(deps: {
  settings: Pick<SyncSettingsReader, 'usersByTodoistIds'>;
  channels: Pick<SyncChannels, 'verify'>;
  states: Pick<SyncStateRepository, 'requestReads' | 'save'>;
  hints: Pick<SyncHintRepository, 'occurrencesCompleted'>;
  queue: Pick<JobQueue, 'requestSyncs'>;
  clock: Clock;
}): NotificationIntake {
  async function writeBatch(notices: SyncNotice[]): Promise<NoticeOutcome[]> {
    const now = deps.clock();
    const todoistIds = [
      ...new Set(notices.flatMap((notice) => (notice.source === 'todoist' ? [notice.todoistUserId] : []))),
    ];
    const usersByTodoistId =
      todoistIds.length > 0 ? await deps.settings.usersByTodoistIds(todoistIds) : new Map<string, string>();
    const pushes = notices.filter((notice) => notice.source === 'calendar');
    const pushUsers = pushes.length > 0 ? await deps.channels.verify(pushes) : [];
    const userOfPush = new Map(pushes.map((push, index) => [push, pushUsers[index] ?? null]));

    const sidesByUser = new Map<string, Set<SyncSide>>();
    const ask = (userId: string, sides: readonly SyncSide[]) => {
      const asked = sidesByUser.get(userId) ?? new Set<SyncSide>();
      for (const side of sides) asked.add(side);
      sidesByUser.set(userId, asked);
    };
    const completed: { userId: string; taskId: string }[] = [];
    const channelsToRenew = new Set<string>();
    const outcomes = notices.map((notice): NoticeOutcome => {
      if (notice.source === 'app') {
        ask(notice.userId, BOTH_SIDES);
        return 'queued';
      }
      if (notice.source === 'todoist') {
        const userId = usersByTodoistId.get(notice.todoistUserId);
        if (!userId) return 'ignored';
        if (notice.completedOccurrence) completed.push({ userId, taskId: notice.completedOccurrence });
        ask(userId, ['todoist']);
        return 'queued';
      }
      const userId = userOfPush.get(notice);
      if (!userId) return 'rejected';
      if (notice.lifecycle) {
        // Graph says the subscription needs renewing (or notices were missed): the run renews it.
        channelsToRenew.add(userId);
        ask(userId, BOTH_SIDES);
      } else {
        ask(userId, ['calendar']);
      }
      return 'queued';
    });

    for (const userId of channelsToRenew) {
      await deps.states.save(userId, { channelExpiresAt: new Date(0) }, now);
    }
    if (completed.length > 0) await deps.hints.occurrencesCompleted(completed, now);
    // Reads are recorded before the runs are queued, so a run never starts without knowing what to read.
    const usersBySides = new Map<string, { sides: SyncSide[]; userIds: string[] }>();
    for (const [userId, asked] of sidesByUser) {
      const sides = BOTH_SIDES.filter((side) => asked.has(side));
      const key = sides.join(' ');
      const group = usersBySides.get(key) ?? { sides, userIds: [] };
      group.userIds.push(userId);
      usersBySides.set(key, group);
    }
    for (const { sides, userIds } of usersBySides.values()) {
      await deps.states.requestReads(userIds, sides, now);
    }
    if (sidesByUser.size > 0) await deps.queue.requestSyncs([...sidesByUser.keys()]);
    return outcomes;
  }

  return { submit: groupCommit(writeBatch) };
}

import type { Clock } from '#server/domain/shared/clock.port.ts';
import { groupCommit } from '#server/jobs/group-commit.ts';
import type { JobQueue } from '#server/jobs/job-queue.ts';
import type { SyncHintRepository } from '../store/sync-hint.repository.ts';
import type { SyncLinkRepository } from '../store/sync-link.repository.ts';
import type { SyncSettingsReader } from '../store/sync-settings.repository.ts';
import type { SyncStateRepository } from '../store/sync-state.repository.ts';
import { BOTH_SIDES, type SyncSide } from '../sync-sides.ts';
import type { SyncChannels } from './sync-channels.ts';

/** Something that may have changed what a user's sync must do; its signature is already checked. */
export type SyncNotice =
  /** A Todoist webhook: the account it names, and the task whose recurring occurrence was completed. */
  | { source: 'todoist'; todoistUserId: string; completedOccurrence: string | null }
  /**
   * A calendar push (Google channel, Graph subscription) or a Graph lifecycle notice; `changed`: the
   * event and version a Graph change notice names.
   */
  | { source: 'calendar'; channelId: string; secret: string; lifecycle: boolean; changed?: EventVersionSeen }
  /** Anything but a provider's notification: a setting, the switch, a payment. */
  | { source: 'app'; userId: string };

/** An event as a change notice saw it: its id and version (Graph's change key). */
export type EventVersionSeen = { eventId: string; version: string };

/**
 * queued: its user's next run will read what it asks; ignored: not one of our users; rejected: forged;
 * malformed: an id no provider sends (a control character, a length beyond any id), refused before it
 * joins a batch.
 */
export type NoticeOutcome = 'queued' | 'ignored' | 'rejected' | 'malformed';

/** Provider ids and channel secrets: visible ASCII, at most 512 characters (Graph's longest ids are ~200). */
const PROVIDER_ID = /^[\x21-\x7e]{1,512}$/;
const isProviderId = (value: string) => PROVIDER_ID.test(value);

/** Whether every id a notice carries could be one a provider sent; the others never reach a batch. */
export function isWellFormedNotice(notice: SyncNotice): boolean {
  switch (notice.source) {
    case 'app':
      return isProviderId(notice.userId);
    case 'todoist':
      return (
        isProviderId(notice.todoistUserId) &&
        (notice.completedOccurrence === null || isProviderId(notice.completedOccurrence))
      );
    case 'calendar':
      return (
        isProviderId(notice.channelId) &&
        isProviderId(notice.secret) &&
        (!notice.changed || (isProviderId(notice.changed.eventId) && isProviderId(notice.changed.version)))
      );
  }
}

export type NotificationIntake = { submit(notice: SyncNotice): Promise<NoticeOutcome> };

/**
 * Records notices before they are acknowledged: which sides each user's next run reads, and that run
 * in the queue. Notices arriving while a batch is written are written together as the next batch (group
 * commit), so a burst of a thousand webhooks costs a handful of statements per batch instead of three
 * or four per webhook, on one connection, and each webhook is answered once its batch is stored.
 */
/**
 * The reads a batch asks for, one statement per set of sides, with the users whose channel delivered a
 * change notice (`heard`). An echo of the sync's own write asks nothing and costs no statement: the
 * quiet-channel check leaves the sync's own writes out instead.
 */
async function requestReadsBySides(
  states: Pick<SyncStateRepository, 'requestReads'>,
  sidesByUser: ReadonlyMap<string, ReadonlySet<SyncSide>>,
  heard: ReadonlySet<string>,
  now: Date,
) {
  const usersBySides = new Map<string, { sides: SyncSide[]; userIds: string[] }>();
  for (const [userId, asked] of sidesByUser) {
    const sides = BOTH_SIDES.filter((side) => asked.has(side));
    const key = sides.join(' ');
    const group = usersBySides.get(key) ?? { sides, userIds: [] };
    group.userIds.push(userId);
    usersBySides.set(key, group);
  }
  for (const { sides, userIds } of usersBySides.values()) {
    await states.requestReads(userIds, sides, now, new Set(userIds.filter((userId) => heard.has(userId))));
  }
}

export function createNotificationIntake(deps: {
  settings: Pick<SyncSettingsReader, 'usersByTodoistIds'>;
  channels: Pick<SyncChannels, 'verify'>;
  states: Pick<SyncStateRepository, 'requestReads' | 'save'>;
  hints: Pick<SyncHintRepository, 'occurrencesCompleted'>;
  links: Pick<SyncLinkRepository, 'knownVersions'>;
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
    const echoes = await ownEchoes(pushes, userOfPush);

    const sidesByUser = new Map<string, Set<SyncSide>>();
    const ask = (userId: string, sides: readonly SyncSide[]) => {
      const asked = sidesByUser.get(userId) ?? new Set<SyncSide>();
      for (const side of sides) asked.add(side);
      sidesByUser.set(userId, asked);
    };
    const completed: { userId: string; taskId: string }[] = [];
    const channelsToRenew = new Set<string>();
    /** Users whose channel delivered a change notice (not an echo): it is alive (`pushHeardAt`). */
    const heard = new Set<string>();
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
      } else if (!echoes.has(notice)) {
        heard.add(userId);
        ask(userId, ['calendar']);
      }
      return 'queued';
    });

    for (const userId of channelsToRenew) {
      await deps.states.save(userId, { channelExpiresAt: new Date(0) }, now);
    }
    if (completed.length > 0) await deps.hints.occurrencesCompleted(completed, now);
    // Reads are recorded before the runs are queued, so a run never starts without knowing what to read.
    await requestReadsBySides(deps.states, sidesByUser, heard, now);
    if (sidesByUser.size > 0) await deps.queue.requestSyncs([...sidesByUser.keys()]);
    return outcomes;
  }

  /**
   * Change notices that only echo what the sync already knows: the event they name is at the version
   * its link recorded (our own write, or a change a run already read). Their read is spared; the next
   * read of the calendar sees them unchanged. A deletion is never one.
   */
  async function ownEchoes(
    pushes: SyncNotice[],
    userOfPush: Map<SyncNotice, string | null>,
  ): Promise<Set<SyncNotice>> {
    const named = pushes.flatMap((notice) => {
      const userId = userOfPush.get(notice);
      return notice.source === 'calendar' && notice.changed && userId && !notice.lifecycle
        ? [{ notice, userId, ...notice.changed }]
        : [];
    });
    if (named.length === 0) return new Set();
    const known = await deps.links.knownVersions(named.map(({ userId, eventId }) => ({ userId, eventId })));
    return new Set(
      named
        .filter(({ userId, eventId, version }) => known.get(`${userId} ${eventId}`) === version)
        .map(({ notice }) => notice),
    );
  }

  const commit = groupCommit(writeBatch);
  return {
    submit: (notice) => (isWellFormedNotice(notice) ? commit(notice) : Promise.resolve('malformed')),
  };
}

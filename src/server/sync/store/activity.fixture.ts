import { expect } from 'vitest';
import { ACTIVITY_KEPT, type NewActivity, type SyncActivityRepository } from './sync-activity.repository.ts';

/** An activity entry for a created event of task `taskId`. */
const createdEntry = (taskId: string): NewActivity => ({
  direction: 'todoist-to-calendar',
  action: 'created',
  taskId,
  eventId: null,
  detail: null,
});

/** Minute `n` of a fixed morning: each run's entries at a time of their own. */
const minute = (n: number) => new Date(Date.UTC(2026, 10, 28, 9, n));

/**
 * What a user's activity keeps, played on a store (the repository on each database, and the in-memory
 * one the engine's tests use): the newest entries from before a run beside the run's own, trimmed by
 * the next run; another user's untouched. `rowsOf` counts a user's rows as stored.
 */
export async function playKeepsTheNewest(
  activity: Pick<SyncActivityRepository, 'add' | 'recent'>,
  rowsOf: (userId: string) => Promise<number>,
  users: { ada: string; bob: string },
) {
  const { ada, bob } = users;
  await activity.add(bob, [createdEntry('bob-1')], minute(0));
  for (let run = 1; run <= ACTIVITY_KEPT + 5; run++)
    await activity.add(ada, [createdEntry(`t${run}`)], minute(run));
  // The older entries beyond the kept number went; the last run's own are kept beside them.
  expect(await rowsOf(ada)).toBe(ACTIVITY_KEPT + 1);

  const last = ['last-a', 'last-b', 'last-c'];
  await activity.add(ada, last.map(createdEntry), minute(ACTIVITY_KEPT + 10));
  expect(await rowsOf(ada)).toBe(ACTIVITY_KEPT + 3);
  const recent = await activity.recent(ada, ACTIVITY_KEPT);
  expect(recent).toHaveLength(ACTIVITY_KEPT);
  expect(new Set(recent.slice(0, 3).map((row) => row.taskId))).toEqual(new Set(last));
  // After the three, the newest 97 of the earlier runs' (t105 down to t9).
  expect(recent.at(-1)?.taskId).toBe(`t${ACTIVITY_KEPT + 5 - (ACTIVITY_KEPT - 3) + 1}`);
  // Another user's entries are theirs alone.
  expect((await activity.recent(bob, 10)).map((row) => row.taskId)).toEqual(['bob-1']);
  // Nothing to add: nothing trimmed.
  await activity.add(ada, [], minute(ACTIVITY_KEPT + 20));
  expect(await rowsOf(ada)).toBe(ACTIVITY_KEPT + 3);
}

/**
 * The held items as the brake last logged them: the newest run's `held` entries only (an earlier
 * run's held ones and other actions left out), another user's apart.
 */
export async function playLastHeld(
  activity: Pick<SyncActivityRepository, 'add' | 'lastHeld'>,
  users: { ada: string; bob: string },
) {
  const { ada, bob } = users;
  const held = (taskId: string): NewActivity => ({
    ...createdEntry(taskId),
    action: 'held',
    eventId: `e-${taskId}`,
  });
  expect(await activity.lastHeld(ada)).toEqual([]);
  await activity.add(ada, [held('a1'), held('a2')], minute(1));
  await activity.add(ada, [held('b1'), held('b2'), held('b3'), createdEntry('c1')], minute(2));
  await activity.add(ada, [createdEntry('c2')], minute(3));
  await activity.add(bob, [held('bob')], minute(4));
  const last = await activity.lastHeld(ada);
  expect(last.map((item) => item.taskId).sort()).toEqual(['b1', 'b2', 'b3']);
  expect(last[0]).toEqual({
    taskId: expect.any(String),
    eventId: `e-${last[0]?.taskId}`,
    direction: 'todoist-to-calendar',
  });
}

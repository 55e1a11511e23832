import type { NewActivity } from './sync-activity.repository.ts';

/** An activity entry for a created event of task `taskId` (the activity tests of both stores). */
export const createdEntry = (taskId: string): NewActivity => ({
  direction: 'todoist-to-calendar',
  action: 'created',
  taskId,
  eventId: null,
  detail: null,
});

/** Minute `n` of a fixed morning: each test run's entries at times of their own. */
export const minute = (n: number) => new Date(Date.UTC(2026, 10, 28, 9, n));

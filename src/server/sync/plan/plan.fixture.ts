import type { CalendarEvent } from '../calendar-target.port.ts';
import { NO_REFUSAL, type SyncLink } from '../sync-link.ts';
import type { SyncSettings } from '../sync-settings.ts';
import type { TaskDue, TaskSnapshot } from '../task-source.port.ts';
import type { PlanInput } from './link-plan.ts';
import { blankEvent, blankTask } from './snapshots.ts';

/**
 * One synced pair for the planner's unit tests, as both sides and the link see it: the task "Write",
 * timeboxed 30 minutes tomorrow at 09:00 in Berlin (`START`), its event, and the link between them.
 */

/** The title hash of the tests: readable, not salted. */
export const testHash = (title: string) => `h:${title}`;

export const START = new Date('2026-07-16T07:00:00Z'); // 09:00 Berlin
const READ_AT = '2026-07-15T05:00:00Z';

/** A due on `date` (`YYYY-MM-DD`: a date without a time; or a floating time), not recurring unless `fields` say. */
export const dueOn = (date: string, fields: Partial<TaskDue> = {}): TaskDue => ({
  date,
  timezone: null,
  isRecurring: false,
  string: '',
  ...fields,
});

export function taskSnapshot(overrides: Partial<TaskSnapshot> = {}): TaskSnapshot {
  return blankTask('t1', {
    content: 'Write',
    labels: ['30min'],
    due: { date: '2026-07-16T09:00:00', timezone: null, isRecurring: false, string: 'tomorrow at 9' },
    updatedAt: READ_AT,
    ...overrides,
  });
}

export function calendarEvent(overrides: Partial<CalendarEvent> = {}): CalendarEvent {
  const start = overrides.start ?? START;
  return blankEvent('e1', {
    title: 'Write',
    start,
    end: start && new Date(start.getTime() + 30 * 60_000),
    version: 'v1',
    updatedAt: new Date(READ_AT),
    ...overrides,
  });
}

export function syncLink(overrides: Partial<SyncLink> = {}): SyncLink {
  return {
    id: 'l1',
    taskId: 't1',
    eventId: 'e1',
    calendarId: 'primary',
    origin: 'task',
    pendingKey: null,
    generation: 0,
    taskVersion: READ_AT,
    eventVersion: 'v1',
    titleHash: testHash('Write'),
    startAt: START,
    allDay: false,
    taskMinutes: 30,
    eventMinutes: 30,
    completed: false,
    marked: false,
    appearanceHash: '',
    taskMeta: { labels: ['30min'], dueTimezone: null, recurrence: null },
    ...NO_REFUSAL,
    ...overrides,
  };
}

/** What the planner reads at `now` with `settings`: nothing on either side and no links, unless `input` says. */
export const planInput = (settings: SyncSettings, now: Date, input: Partial<PlanInput> = {}): PlanInput => ({
  settings,
  now,
  hash: testHash,
  links: [],
  tasks: [],
  events: [],
  completedOccurrences: new Set(),
  ...input,
});

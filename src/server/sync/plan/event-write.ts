import type { EventWrite } from '../calendar-target.port.ts';
import type { SyncLink } from '../sync-link.ts';
import type { SyncSettings } from '../sync-settings.ts';
import type { TaskSnapshot } from '../task-source.port.ts';
import { eventTitle } from './event-title.ts';
import type { PlanInput } from './link-plan.ts';
import { eventTiming, linkWhen, type When } from './timebox-when.ts';

const TASK_URL = (taskId: string) => `https://app.todoist.com/app/task/${taskId}`;

/** Fingerprint of the settings that shape every event we write. */
export function appearanceHash(settings: SyncSettings): string {
  const { calendarProvider, color, category, reminder, linkDescription } = settings;
  return JSON.stringify([calendarProvider, color, category, settings.private, reminder, linkDescription]);
}

/**
 * The event a task's timebox is written as: `minutes` long from its start, or all day (`appearance`
 * false: an event the user made keeps its look).
 */
export function eventWriteFor(
  settings: SyncSettings,
  task: { id: string; title: string },
  when: When,
  minutes: number,
  marked: boolean,
  appearance = true,
): EventWrite {
  return {
    appearance,
    title: eventTitle(task.title, marked),
    ...eventTiming(when, minutes, settings.timeZone),
    timeZone: settings.timeZone,
    color: settings.color,
    category: settings.category,
    private: settings.private,
    reminderMinutes: settings.reminder,
    description: settings.linkDescription ? TASK_URL(task.id) : null,
    taskId: task.id,
  };
}

/** The event as the link last synced it, with the task's current title. */
export function writeFromLink(
  input: PlanInput,
  link: SyncLink,
  task: TaskSnapshot,
  marked: boolean,
): EventWrite {
  return eventWriteFor(
    input.settings,
    { id: task.id, title: task.content },
    linkWhen(link),
    link.eventMinutes,
    marked,
    link.origin === 'task',
  );
}

import type { Config } from './config.ts';
import type { Clock } from './domain/shared/clock.port.ts';
import { createGoogleCalendarEvents } from './providers/google-calendar/google-calendar-events.adapter.ts';
import { createGoogleCalendarGateway } from './providers/google-calendar/google-calendar-gateway.adapter.ts';
import { createMicrosoftCalendarEvents } from './providers/microsoft/microsoft-calendar-events.adapter.ts';
import { createMicrosoftCalendarGateway } from './providers/microsoft/microsoft-calendar-gateway.adapter.ts';
import { createTodoistGateway } from './providers/todoist/todoist-gateway.adapter.ts';
import { createTodoistTasks } from './providers/todoist/todoist-tasks.adapter.ts';
import type { TaskSource } from './sync/task-source.port.ts';

// Part of the composition root (app.ts): the provider clients the config names, each null where its
// provider is not configured.

/** The connect flows' and token refreshes' clients of Todoist, Google Calendar and Microsoft 365. */
export function createIntegrationGateways(config: Config, clock: Clock) {
  return {
    todoist: config.todoist ? createTodoistGateway(config.todoist, clock) : null,
    google: config.googleCalendar ? createGoogleCalendarGateway(config.googleCalendar) : null,
    microsoft: config.microsoft ? createMicrosoftCalendarGateway(config.microsoft, clock) : null,
  };
}

/** What the sync reads and writes: Todoist's tasks and the calendars' events. */
export function createSyncProviders(config: Config, clock: Clock) {
  const calendarTargets = {
    google: config.googleCalendar
      ? createGoogleCalendarEvents(config.googleCalendar, clock, { timeoutMs: config.syncProviderTimeoutMs })
      : null,
    microsoft: config.microsoft
      ? createMicrosoftCalendarEvents(config.microsoft, clock, { timeoutMs: config.syncProviderTimeoutMs })
      : null,
  };
  const tasks = config.todoist
    ? createTodoistTasks(config.todoist, { timeoutMs: config.syncProviderTimeoutMs })
    : unavailableTaskSource;
  return { calendarTargets, tasks };
}

const unavailableTaskSource: TaskSource = {
  changes: () => Promise.reject(new Error('Todoist is not configured')),
  task: () => Promise.reject(new Error('Todoist is not configured')),
  openTasks: () => Promise.reject(new Error('Todoist is not configured')),
  apply: () => Promise.reject(new Error('Todoist is not configured')),
};

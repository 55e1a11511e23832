import type { IntegrationName } from '#shared/api/auth.schema.ts';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { syncReadiness } from './sync-readiness.ts';

/**
 * The way to a first sync (docs/product-rules.md §2, §4), in the order the welcome guide and the dashboard's
 * "Next step" card lead through it: each step needs the ones before it (a timebox setting needs Todoist's
 * labels, a calendar needs a connected account).
 */
export const SETUP_STEPS = [
  'connect-todoist',
  'connect-calendar',
  'add-timebox',
  'choose-calendar',
  'switch-sync-on',
] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

export type CalendarProvider = Exclude<IntegrationName, 'Todoist'>;

export type SetupProgress = {
  done: Record<SetupStep, boolean>;
  /** Todoist is linked but no longer accepts our access: it must be connected again. */
  todoistAgain: boolean;
  /** The linked calendar account (also one that must be connected again), or null. */
  calendarProvider: CalendarProvider | null;
  calendarAgain: boolean;
  timeboxCount: number;
  /** The chosen calendar's name (its id while the list lacks it), or null. */
  calendarName: string | null;
};

/** Where the user stands on each setup step, read from the same readiness the sync switch obeys. */
export function setupProgress(user: CurrentUser): SetupProgress {
  const readiness = syncReadiness(user);
  const calendar = user.calendarSettings;
  const calendarProvider = calendar.connected ? calendar.provider : null;
  const chosen = calendar.calendars.find((entry) => entry.id === calendar.calendarId);
  return {
    done: {
      'connect-todoist': readiness.todoistConnected,
      'connect-calendar': readiness.calendarConnected,
      'add-timebox': readiness.timeboxCount > 0,
      'choose-calendar': readiness.calendarConnected && readiness.calendarChosen,
      'switch-sync-on': user.syncActive,
    },
    todoistAgain: user.todoSettings.connected && user.todoSettings.needsReconnect,
    calendarProvider,
    calendarAgain: !!calendarProvider && calendar.needsReconnect,
    timeboxCount: readiness.timeboxCount,
    calendarName: calendar.calendarId ? (chosen?.name ?? calendar.calendarId) : null,
  };
}

export type NextStep = {
  step: SetupStep;
  /** 1-based place in SETUP_STEPS. */
  position: number;
  /** The step is a connection that exists but must be made again. */
  again: boolean;
  calendarProvider: CalendarProvider | null;
};

/** The one thing to do next, the first step not done; null once sync is on (docs/product-rules.md §2). */
export function nextStep(user: CurrentUser): NextStep | null {
  if (user.syncActive) return null;
  const progress = setupProgress(user);
  const index = SETUP_STEPS.findIndex((step) => !progress.done[step]);
  const step = SETUP_STEPS[index];
  if (!step) return null;
  return {
    step,
    position: index + 1,
    again:
      (step === 'connect-todoist' && progress.todoistAgain) ||
      (step === 'connect-calendar' && progress.calendarAgain),
    calendarProvider: progress.calendarProvider,
  };
}

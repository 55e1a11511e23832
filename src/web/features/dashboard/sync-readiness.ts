import type { SyncReadiness } from '#shared/settings/rules.ts';

/** The steps still missing before sync can be switched on, as a person would do them. */
export function missingForSync(readiness: SyncReadiness): string[] {
  const missing: string[] = [];
  if (!readiness.todoistConnected) missing.push('connect Todoist');
  if (readiness.timeboxCount === 0) missing.push('add at least one timebox setting');
  if (!readiness.calendarConnected) missing.push('connect Google Calendar or Microsoft 365');
  else if (!readiness.calendarChosen) missing.push('choose a calendar in the Calendar Settings');
  return missing;
}

/** 'a', 'a and b', 'a, b and c'. */
export function joinSteps(steps: readonly string[]): string {
  if (steps.length <= 1) return steps.join('');
  return `${steps.slice(0, -1).join(', ')} and ${steps.at(-1)}`;
}

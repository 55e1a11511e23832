import type { TodoistLabel } from '../api/current-user.schema.ts';
import { countOf } from '../text/count-of.ts';
import { SYNC_ALL_TASKS, TODOIST_ACCOUNT_TYPES_WITH_DURATION } from './constants.ts';

/** Minutes as h:mm with zero-padded minutes; '---' for anything that is not a whole, positive duration. */
export function formatHours(minutes: unknown): string {
  const value = typeof minutes === 'number' ? minutes : Number(minutes);
  if (typeof minutes === 'boolean' || minutes === '' || !Number.isInteger(value) || value < 0) return '---';
  return `${Math.floor(value / 60)}:${String(value % 60).padStart(2, '0')}`;
}

/** '1 minute', '30 minutes', '0 minutes' (docs/product-rules.md §5: plural unless exactly 1). */
export function pluralizeMinutes(minutes: number): string {
  return countOf(minutes, 'minute');
}

export type TimeboxSetting = { label: string; duration: number };

/** Timeboxes are kept and shown sorted ascending by duration, then by label. */
export function sortTimeboxes<T extends TimeboxSetting>(settings: readonly T[]): T[] {
  return [...settings].sort((a, b) => a.duration - b.duration || a.label.localeCompare(b.label));
}

/** Todoist labels are kept and shown in Todoist's own order (docs/product-rules.md §9). */
export function sortLabels<T extends { item_order: number }>(labels: readonly T[]): T[] {
  return [...labels].sort((a, b) => a.item_order - b.item_order);
}

/** The task-duration label choices: the sync-all option first (order 0), then the labels by their order. */
export function taskDurationOptions(labels: readonly TodoistLabel[]): { value: string; label: string }[] {
  return [
    { value: SYNC_ALL_TASKS, label: 'Sync all tasks with a duration' },
    ...sortLabels(labels).map((label) => ({ value: label.name, label: label.name })),
  ];
}

export function canUseTaskDuration(accountType: string | null | undefined): boolean {
  return TODOIST_ACCOUNT_TYPES_WITH_DURATION.some((type) => type === accountType);
}

/**
 * What "connected" means for an integration, on both sides: its account is linked (the user view's
 * `connected`; any stored connection row) and still accepts our access. One that must be connected
 * again counts as not connected for the sync switch and for the settings that need it.
 */
export function isConnected(
  integration: { connected?: boolean; needsReconnect: boolean } | null | undefined,
): boolean {
  return !!integration && integration.connected !== false && !integration.needsReconnect;
}

export type SyncReadiness = {
  todoistConnected: boolean;
  timeboxCount: number;
  calendarConnected: boolean;
  calendarChosen: boolean;
};

/**
 * Per docs/product-rules.md §4: sync can be switched on only when everything is in place; switching off is
 * always allowed.
 */
export function syncToggleAllowed(readiness: SyncReadiness, turningOn: boolean): boolean {
  if (!turningOn) return true;
  return (
    readiness.todoistConnected &&
    readiness.timeboxCount > 0 &&
    readiness.calendarConnected &&
    readiness.calendarChosen
  );
}

export type ConnectionStatus = 'ok' | 'incomplete' | 'disconnected';

/**
 * Status icons (docs/product-rules.md §4): green when complete, yellow when connected but unconfigured, red
 * when not connected.
 */
export function todoistStatus(connected: boolean, timeboxCount: number): ConnectionStatus {
  if (!connected) return 'disconnected';
  return timeboxCount > 0 ? 'ok' : 'incomplete';
}

export function calendarStatus(connected: boolean, calendarChosen: boolean): ConnectionStatus {
  if (!connected) return 'disconnected';
  return calendarChosen ? 'ok' : 'incomplete';
}

import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { isConnected, type SyncReadiness } from '#shared/settings/rules.ts';

/**
 * What the sync toggle's rule (docs/product-rules.md §4) needs to know about the user; the dashboard and the
 * welcome guide both read where the user stands from it.
 */
export function syncReadiness(user: CurrentUser): SyncReadiness {
  const todo = user.todoSettings;
  const calendar = user.calendarSettings;
  return {
    todoistConnected: isConnected(todo),
    timeboxCount: todo.timeboxSettings.length,
    calendarConnected: isConnected(calendar),
    calendarChosen: !!calendar.calendarId,
  };
}

import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { type ConnectionStatus, calendarStatus, todoistStatus } from '#shared/settings/rules.ts';
import { countOf } from '#shared/text/count-of.ts';

export type ConnectionLine = { name: string; status: ConnectionStatus; text: string };

/**
 * One line per integration for the Status row: the icon's state (docs/product-rules.md §4) and the words for
 * it.
 */
export function connectionSummary(user: CurrentUser): ConnectionLine[] {
  const todo = user.todoSettings;
  const calendar = user.calendarSettings;
  const timeboxes = todo.timeboxSettings.length;

  const todoist: ConnectionLine = todo.needsReconnect
    ? { name: 'Todoist', status: 'incomplete', text: 'Todoist needs to be connected again.' }
    : {
        name: 'Todoist',
        status: todoistStatus(todo.connected, timeboxes),
        text: !todo.connected
          ? 'Todoist is not connected.'
          : timeboxes === 0
            ? 'Todoist is connected, but there is no timebox setting yet.'
            : `Todoist is connected with ${countOf(timeboxes, 'timebox setting')}.`,
      };

  const provider = calendar.provider ?? 'Calendar';
  const chosen = calendar.calendars.find((entry) => entry.id === calendar.calendarId);
  const calendarLine: ConnectionLine = calendar.needsReconnect
    ? { name: provider, status: 'incomplete', text: `${provider} needs to be connected again.` }
    : {
        name: provider,
        status: calendarStatus(calendar.connected, !!calendar.calendarId),
        text: !calendar.connected
          ? 'No calendar is connected.'
          : !calendar.calendarId
            ? `${provider} is connected, but no calendar is chosen yet.`
            : `${provider} is connected and syncs with the calendar “${chosen?.name ?? calendar.calendarId}”.`,
      };

  return [todoist, calendarLine];
}

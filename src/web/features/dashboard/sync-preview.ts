import { useQuery } from '@tanstack/react-query';
import { contract } from '#shared/api/contract.ts';
import type { CalendarSettings } from '#shared/api/current-user.schema.ts';
import { api } from '../../lib/api-client.ts';

/** Read afresh each time the dialog opens: the counts change with every task and event. */
export function useSyncPreview(enabled: boolean) {
  return useQuery({
    queryKey: ['sync', 'preview'],
    queryFn: () => api(contract.sync.preview),
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

export function tasksToEventsText(count: number, calendarName: string): string {
  return count === 1
    ? `1 task will become an event in ${calendarName}`
    : `${count} tasks will become events in ${calendarName}`;
}

export function eventsToTasksText(count: number): string {
  return count === 1 ? '1 event will become a task' : `${count} events will become tasks`;
}

/** The warning when the main calendar is chosen with the default colour (Google) or no category (Microsoft). */
export function mainCalendarDefaultWarning(provider: CalendarSettings['provider']): {
  title: string;
  message: string;
} {
  const microsoft = provider === 'Microsoft';
  const chosen = microsoft ? 'no category' : 'the default colour';
  const mark = microsoft ? 'a category' : 'an event colour';
  return {
    title: 'Every existing event will become a task',
    message:
      `You chose your main calendar with ${chosen}, so Timeboxer cannot tell its events from yours: ` +
      'every existing event from today on becomes a Todoist task. ' +
      `We recommend choosing ${mark} for Timeboxer in the Calendar Settings first.`,
  };
}

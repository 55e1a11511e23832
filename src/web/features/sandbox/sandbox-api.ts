import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type SandboxCalendarProvider,
  type SandboxEventInput,
  type SandboxEventRef,
  type SandboxTaskInput,
  sandboxCalendarSchema,
  sandboxTodoistSchema,
} from '#shared/api/sandbox.schema.ts';
import { getJson, sendJson } from '../../lib/api-client.ts';

/** How often the console re-reads both sides, so that changes made by the sync show up by themselves. */
const REFRESH_MS = 3000;

const query = (params: Record<string, string | undefined>) =>
  new URLSearchParams(
    Object.entries(params).filter((entry): entry is [string, string] => !!entry[1]),
  ).toString();

export function useSandboxTodoist(email: string) {
  return useQuery({
    queryKey: ['sandbox', 'todoist', email],
    queryFn: () => getJson(`/api/sandbox/todoist?${query({ email })}`, sandboxTodoistSchema),
    refetchInterval: REFRESH_MS,
    enabled: email.includes('@'),
  });
}

export function useSandboxCalendar(
  email: string,
  provider: SandboxCalendarProvider,
  calendarId: string | undefined,
) {
  return useQuery({
    queryKey: ['sandbox', 'calendar', provider, email, calendarId],
    queryFn: () =>
      getJson(`/api/sandbox/calendar?${query({ email, provider, calendarId })}`, sandboxCalendarSchema),
    refetchInterval: REFRESH_MS,
    enabled: email.includes('@'),
  });
}

/** One mutation per change; each refreshes the panel it changed. */
export function useSandboxChange<T>(side: 'todoist' | 'calendar', send: (input: T) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['sandbox', side] }),
  });
}

export const sandboxCalls = {
  addTask: (input: SandboxTaskInput) => sendJson('POST', '/api/sandbox/todoist/tasks', input),
  updateTask: ({ id, ...input }: SandboxTaskInput & { id: string }) =>
    sendJson('PATCH', `/api/sandbox/todoist/tasks/${encodeURIComponent(id)}`, input),
  completeTask: ({ id, email }: { id: string; email: string }) =>
    sendJson('POST', `/api/sandbox/todoist/tasks/${encodeURIComponent(id)}/close`, { email }),
  deleteTask: ({ id, email }: { id: string; email: string }) =>
    sendJson('DELETE', `/api/sandbox/todoist/tasks/${encodeURIComponent(id)}?${query({ email })}`),
  addEvent: (input: SandboxEventInput) => sendJson('POST', '/api/sandbox/calendar/events', input),
  updateEvent: ({ id, ...input }: SandboxEventInput & { id: string }) =>
    sendJson('PATCH', `/api/sandbox/calendar/events/${encodeURIComponent(id)}`, input),
  deleteEvent: ({ id, email, provider, calendarId }: SandboxEventRef) =>
    sendJson(
      'DELETE',
      `/api/sandbox/calendar/events/${encodeURIComponent(id)}?${query({ email, provider, calendarId })}`,
    ),
};

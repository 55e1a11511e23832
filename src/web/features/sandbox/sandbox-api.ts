import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type SandboxCalendarProvider,
  type SandboxEventInput,
  type SandboxEventRef,
  type SandboxTaskInput,
  sandboxAccountsSchema,
  sandboxCalendarSchema,
  sandboxTodoistSchema,
} from '#shared/api/sandbox.schema.ts';
import { getJson, sendJson } from '../../lib/api-client.ts';

/**
 * How often the console re-reads both sides (and the sync activity), so that changes made by the sync
 * show up by themselves. TanStack Query pauses it while the tab is hidden, and re-renders only when an
 * answer differs, so nothing flickers and an open form keeps what is being typed.
 */
export const SANDBOX_REFRESH_MS = 1500;

const query = (params: Record<string, string | undefined>) =>
  new URLSearchParams(
    Object.entries(params).filter((entry): entry is [string, string] => !!entry[1]),
  ).toString();

export function useSandboxTodoist(email: string) {
  return useQuery({
    queryKey: ['sandbox', 'todoist', email],
    queryFn: () => getJson(`/api/sandbox/todoist?${query({ email })}`, sandboxTodoistSchema),
    refetchInterval: SANDBOX_REFRESH_MS,
    // Another account's list stays until the new one is read, instead of a loader in between.
    placeholderData: keepPreviousData,
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
    refetchInterval: SANDBOX_REFRESH_MS,
    // Another account or calendar of the same service stays until the new one is read; another service
    // does not, since its calendars mean nothing there.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2] === provider ? previous : undefined,
    enabled: email.includes('@'),
  });
}

/** The accounts the signed-in visitor connected, which the console opens on. */
export function useSandboxAccounts(enabled: boolean) {
  return useQuery({
    queryKey: ['sandbox', 'accounts'],
    queryFn: () => getJson('/api/sandbox/accounts', sandboxAccountsSchema),
    staleTime: 60_000,
    enabled,
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

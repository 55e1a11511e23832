import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract } from '#shared/api/contract.ts';
import type {
  SandboxCalendarProvider,
  SandboxEventInput,
  SandboxEventRef,
  SandboxLabelRename,
  SandboxProjectInput,
  SandboxProjectRename,
  SandboxTaskInput,
} from '#shared/api/sandbox.schema.ts';
import { api } from '../../lib/api-client.ts';

const { sandbox } = contract;

/**
 * How often the console re-reads both sides (and the sync activity), so that changes made by the sync
 * show up by themselves. TanStack Query pauses it while the tab is hidden, and re-renders only when an
 * answer differs, so nothing flickers and an open form keeps what is being typed.
 */
export const SANDBOX_REFRESH_MS = 1500;

export function useSandboxTodoist(email: string) {
  return useQuery({
    queryKey: ['sandbox', 'todoist', email],
    queryFn: () => api(sandbox.todoist, { query: { email } }),
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
    queryFn: () => api(sandbox.calendar, { query: { email, provider, calendarId } }),
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
    queryFn: () => api(sandbox.accounts),
    staleTime: 60_000,
    enabled,
  });
}

/** The notice mails the sandbox's mail server received for the signed-in visitor, newest first. */
export function useSandboxInbox(userId: string) {
  return useQuery({
    queryKey: ['sandbox', 'inbox', userId],
    queryFn: () => api(sandbox.inbox),
    refetchInterval: SANDBOX_REFRESH_MS,
  });
}

/** One mutation per change; each refreshes the panel it changed. */
export function useSandboxChange<T>(side: 'todoist' | 'calendar', send: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['sandbox', side] }),
  });
}

export const sandboxCalls = {
  addTask: (input: SandboxTaskInput) => api(sandbox.addTask, input),
  updateTask: ({ id, ...body }: SandboxTaskInput & { id: string }) =>
    api(sandbox.updateTask, { params: { id }, body }),
  completeTask: ({ id, email }: { id: string; email: string }) =>
    api(sandbox.completeTask, { params: { id }, body: { email } }),
  deleteTask: ({ id, email }: { id: string; email: string }) =>
    api(sandbox.deleteTask, { params: { id }, query: { email } }),
  renameLabel: ({ id, ...body }: SandboxLabelRename & { id: string }) =>
    api(sandbox.renameLabel, { params: { id }, body }),
  deleteLabel: ({ id, email }: { id: string; email: string }) =>
    api(sandbox.deleteLabel, { params: { id }, query: { email } }),
  addProject: (input: SandboxProjectInput) => api(sandbox.addProject, input),
  renameProject: ({ id, ...body }: SandboxProjectRename & { id: string }) =>
    api(sandbox.renameProject, { params: { id }, body }),
  archiveProject: ({ id, email }: { id: string; email: string }) =>
    api(sandbox.archiveProject, { params: { id }, body: { email } }),
  unarchiveProject: ({ id, email }: { id: string; email: string }) =>
    api(sandbox.unarchiveProject, { params: { id }, body: { email } }),
  deleteProject: ({ id, email }: { id: string; email: string }) =>
    api(sandbox.deleteProject, { params: { id }, query: { email } }),
  addEvent: (input: SandboxEventInput) => api(sandbox.addEvent, input),
  updateEvent: ({ id, ...body }: SandboxEventInput & { id: string }) =>
    api(sandbox.updateEvent, { params: { '*': id }, body }),
  deleteEvent: ({ id, email, provider, calendarId }: SandboxEventRef) =>
    api(sandbox.deleteEvent, { params: { '*': id }, query: { email, provider, calendarId } }),
};

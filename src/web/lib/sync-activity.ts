import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract } from '#shared/api/contract.ts';
import type { BrakeChoice, HeldItem, SyncActivity } from '#shared/api/sync.schema.ts';
import { api } from './api-client.ts';

export const syncActivityQueryKey = ['sync', 'activity'] as const;
/** When the activity is read again after a choice on held removals. */
const CHOICE_FOLLOW_UP_MS = [1000, 2500, 5000];

type Options = {
  /** Re-read this often while the tab is visible; false reads once. */
  refetchMs: number | false;
  enabled?: boolean;
};

/**
 * What the sync engine did lately, and what only the user can fix. TanStack Query pauses the interval
 * while the tab is hidden. A failure (the engine's routes missing, the server down) is left to the
 * caller to show; the interval keeps asking, so the list recovers by itself.
 */
export function useSyncActivity({ refetchMs, enabled = true }: Options) {
  return useQuery({
    queryKey: syncActivityQueryKey,
    queryFn: () => api(contract.sync.activity),
    refetchInterval: refetchMs,
    retry: false,
    enabled,
  });
}

/** While a side's names could not be read (busy, or to reconnect), they are asked for again this often. */
const NAMES_RETRY_MS = 30_000;

/**
 * What the names are asked for: the entries shown, the held items and the refused writes (a new entry,
 * or a write refused again, asks again).
 */
const namesKey = (activity: SyncActivity) =>
  [
    ...activity.entries.map((entry) => entry.id),
    ...(activity.heldRemovals?.items ?? []).map((item) => `${item.taskId} ${item.eventId}`),
    ...(activity.refusedWrites?.items ?? []).map(
      (item) => `${item.taskId} ${item.eventId} ${item.refusedAt}`,
    ),
  ].join(',');

/**
 * The titles and times of the items the activity names, read live from Todoist and the calendar by the
 * server (never stored) whenever the activity names new ones; the previous names stay shown meanwhile.
 */
export function useActivityNames(activity: SyncActivity | undefined) {
  const key = activity ? namesKey(activity) : '';
  return useQuery({
    queryKey: ['sync', 'activity-names', key],
    queryFn: () => api(contract.sync.activityNames),
    enabled: key !== '',
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    refetchInterval: (query) => ((query.state.data?.unavailable.length ?? 0) > 0 ? NAMES_RETRY_MS : false),
    retry: false,
  });
}

/** A choice on held removals: for every one still undecided, or for the items named. */
export type HeldChoice = { choice: BrakeChoice; items?: HeldItem[] };

/**
 * The user's choice on removals the safety brake held back, for all or for single items; the activity
 * it answers replaces the one shown.
 */
export function useChooseHeldRemovals() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ choice, items }: HeldChoice) =>
      api(contract.sync.chooseHeld, { params: { choice }, body: items ? { items } : {} }),
    onSuccess: (activity) => {
      queryClient.setQueryData(syncActivityQueryKey, activity);
      // The choice is carried out by a run within a few seconds: show its outcome as soon as it is there.
      for (const delay of CHOICE_FOLLOW_UP_MS) {
        setTimeout(() => queryClient.invalidateQueries({ queryKey: syncActivityQueryKey }), delay);
      }
    },
    // Refused, the choice may name what is held no longer (a run carried it out): show what is now.
    onError: () => queryClient.invalidateQueries({ queryKey: syncActivityQueryKey }),
  });
}

/** The user has read where events stayed after a switch of account or provider. */
export function useDismissLeftBehind() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(contract.sync.dismissLeftBehind, {}),
    onSuccess: (activity) => queryClient.setQueryData(syncActivityQueryKey, activity),
  });
}

/** The user has read that another sync (Todoist's own calendar integration) writes into the calendar. */
export function useDismissOtherSync() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(contract.sync.dismissOtherSync, {}),
    onSuccess: (activity) => queryClient.setQueryData(syncActivityQueryKey, activity),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { errorMessage } from './api-client.ts';
import { currentUserQueryKey } from './current-user.ts';
import type { SaveReporter } from './save-status.ts';
import { showSaveError } from './toast.tsx';

const userChangeKey = ['user-change'] as const;

type Options = {
  /** The error toast's title; its message is the server's. */
  errorTitle?: string;
  /** The card's save confirmation (`useSaveStatus`), told when the save starts and how it ends. */
  status?: SaveReporter;
};

/**
 * A change to the signed-in user (every change of docs/product-rules.md §7 answers with the updated user):
 * the user the server answers with replaces the cached one. While another change is still on its way, the
 * cache is refetched instead, so an older answer arriving last cannot undo a newer one. A failure is shown as
 * an error toast with the server's message, and the user is fetched again so the page shows what is really
 * saved. With a `status`, the card shows "Saved" or the failure inline as well (lib/save-status.ts).
 */
export function useUserChange<V>(
  send: (variables: V) => Promise<CurrentUser>,
  { errorTitle, status }: Options = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: userChangeKey,
    mutationFn: send,
    onMutate: () => {
      status?.start();
    },
    onSuccess: async (user) => {
      if (queryClient.isMutating({ mutationKey: userChangeKey }) > 1) {
        await queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
      } else {
        queryClient.setQueryData(currentUserQueryKey, user);
      }
      status?.succeed();
    },
    onError: (error) => {
      showSaveError(errorMessage(error), errorTitle);
      status?.fail();
      // The refusal may come from a state the page has not seen yet (a connection removed elsewhere).
      void queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
    },
  });
}

/** Stores a user the server answered with outside of a mutation (a multi-step save, a refresh). */
export function useStoreUser() {
  const queryClient = useQueryClient();
  return (user: CurrentUser) => queryClient.setQueryData(currentUserQueryKey, user);
}

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { contract } from '#shared/api/contract.ts';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { api } from '../../lib/api-client.ts';
import { currentUserQueryKey } from '../../lib/current-user.ts';

/**
 * Per docs/product-rules.md §7: once the user is known, ask the server to re-read the Todoist and calendar
 * profiles (account type, labels, calendars, categories) and show the user they answer with. Failures are
 * ignored: the dashboard keeps what it has. An answer that arrives after the user changed something meanwhile
 * is not stored; the user is fetched again instead, so it cannot undo that change.
 */
export function useProviderRefresh(user: CurrentUser) {
  const queryClient = useQueryClient();
  const refreshes = [
    user.todoSettings.connected ? contract.integrations.refreshTodoist : null,
    user.calendarSettings.connected ? contract.integrations.refreshCalendar : null,
  ].filter((refresh) => refresh !== null);

  useQuery({
    queryKey: ['provider-profile-refresh', user.id],
    enabled: refreshes.length > 0,
    staleTime: 5 * 60_000,
    retry: false,
    queryFn: async () => {
      for (const refresh of refreshes) {
        const before = queryClient.getQueryState(currentUserQueryKey)?.dataUpdatedAt;
        try {
          const fresh = await api(refresh);
          if (queryClient.getQueryState(currentUserQueryKey)?.dataUpdatedAt === before) {
            queryClient.setQueryData(currentUserQueryKey, fresh);
          } else {
            await queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
          }
        } catch {
          // Errors are ignored (docs/product-rules.md §7): the provider may be down or the integration just
          // removed.
        }
      }
      return true;
    },
  });
}

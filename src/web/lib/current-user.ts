import { useQuery } from '@tanstack/react-query';
import { contract } from '#shared/api/contract.ts';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { api } from './api-client.ts';

/** Auth state of docs/product-rules.md §4: null while loading, false when signed out, else the user. */
export type AuthState = CurrentUser | false | null;

export const currentUserQueryKey = ['current_user'] as const;

async function fetchCurrentUser(): Promise<CurrentUser | false> {
  return (await api(contract.user.current)) ?? false;
}

export function useAuth(): AuthState {
  const query = useQuery({ queryKey: currentUserQueryKey, queryFn: fetchCurrentUser, staleTime: 60_000 });
  if (query.isPending) return null;
  // A failed user fetch is treated as signed out, so the public pages still render.
  return query.data ?? false;
}

import { useQuery } from '@tanstack/react-query';
import { type CurrentUser, currentUserSchema } from '#shared/api/current-user.schema.ts';
import { getText } from '../../../lib/api-client.ts';

/** Auth state of spec §4: null while loading, false when signed out, else the user. */
export type AuthState = CurrentUser | false | null;

export const currentUserQueryKey = ['current_user'] as const;

async function fetchCurrentUser(): Promise<CurrentUser | false> {
  const body = await getText('/api/current_user');
  return body.trim() === '' ? false : currentUserSchema.parse(JSON.parse(body));
}

export function useAuth(): AuthState {
  const query = useQuery({ queryKey: currentUserQueryKey, queryFn: fetchCurrentUser, staleTime: 60_000 });
  if (query.isPending) return null;
  // A failed user fetch is treated as signed out, so the public pages still render.
  return query.data ?? false;
}

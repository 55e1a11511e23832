import { useQuery } from '@tanstack/react-query';
import { contract } from '#shared/api/contract.ts';
import type { Autoplan } from '#shared/settings/settings.schema.ts';
import { api } from '../../lib/api-client.ts';

export const planMyDayCalls = {
  /** The working hours and the switch together; answers the user. */
  setAutoplan: (autoplan: Autoplan) => api(contract.settings.setAutoplan, autoplan),
};

/**
 * Where the saved working hours would place the next 7 days' dated tasks; read afresh each time the
 * preview opens, as tasks and meetings change all the time.
 */
export function useAutoplanPreview(enabled: boolean) {
  return useQuery({
    queryKey: ['sync', 'preview', 'autoplan'],
    queryFn: () => api(contract.sync.previewAutoplan),
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

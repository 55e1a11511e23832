import { useQuery } from '@tanstack/react-query';
import { contract } from '#shared/api/contract.ts';
import { api } from './api-client.ts';

export function usePublicConfig() {
  return useQuery({
    queryKey: ['config'],
    queryFn: () => api(contract.config.get),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

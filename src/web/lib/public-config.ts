import { useQuery } from '@tanstack/react-query';
import { publicConfigSchema } from '#shared/api/public-config.schema.ts';
import { getJson } from './api-client.ts';

export function usePublicConfig() {
  return useQuery({
    queryKey: ['config'],
    queryFn: () => getJson('/api/config', publicConfigSchema),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

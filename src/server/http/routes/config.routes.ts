import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contract } from '#shared/api/contract.ts';
import { type PublicConfig, publicConfigSchema } from '#shared/api/public-config.schema.ts';
import { fromContract } from './contract-route.ts';

/** What the browser may know of the server's configuration; nothing secret. */
export async function configRoutes(app: FastifyInstance, { publicConfig }: { publicConfig: PublicConfig }) {
  const body = publicConfigSchema.parse(publicConfig);
  app
    .withTypeProvider<ZodTypeProvider>()
    .route({ ...fromContract(contract.config.get), handler: async () => body });
}

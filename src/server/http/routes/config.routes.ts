import type { FastifyInstance } from 'fastify';
import { type PublicConfig, publicConfigSchema } from '#shared/api/public-config.schema.ts';

/** What the browser may know of the server's configuration; nothing secret. */
export async function configRoutes(app: FastifyInstance, { publicConfig }: { publicConfig: PublicConfig }) {
  const body = publicConfigSchema.parse(publicConfig);
  app.get('/api/config', async () => body);
}

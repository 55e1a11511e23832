import type { FastifyInstance } from 'fastify';
import type { Database } from '#server/db/client.ts';
import { readMigrationStatus } from '#server/db/migrations.ts';

export async function healthRoutes(app: FastifyInstance, { database }: { database: Database }) {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    try {
      await database.ping();
    } catch (error) {
      request.log.error({ err: error }, 'database unreachable');
      return reply.status(503).send({ status: 'unavailable', reason: 'database unreachable' });
    }
    const migrations = await readMigrationStatus(database);
    if (migrations.applied < migrations.expected) {
      return reply.status(503).send({ status: 'unavailable', reason: 'migrations pending', ...migrations });
    }
    return { status: 'ready', database: database.kind, migrations: migrations.applied };
  });
}

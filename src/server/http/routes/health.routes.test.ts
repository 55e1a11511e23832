import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Database } from '#server/db/client.ts';
import { healthRoutes } from './health.routes.ts';

describe('health routes', () => {
  it('GET /readyz reports an unreachable database, and /healthz that the process is up all the same', async () => {
    // Only the database's ping is reached: it fails as a closed or unreachable one does.
    const unreachable = {
      kind: 'postgres',
      ping: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')),
    } as unknown as Database;
    const app = Fastify({ logger: false });
    await app.register(healthRoutes, { database: unreachable });
    try {
      const ready = await app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', reason: 'database unreachable' });
      expect((await app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    } finally {
      await app.close();
    }
  });
});

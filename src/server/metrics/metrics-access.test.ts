import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '#server/app.ts';
import { PRODUCTION_ENV } from '#server/test/production-env.ts';
import { createTestApp, useTestApp } from '#server/test/test-app.ts';

const PRODUCTION = PRODUCTION_ENV;

describe('/metrics in production (docs/decisions/015-metrics.md)', () => {
  describe('with METRICS_PORT', () => {
    let app: App;
    beforeAll(async () => {
      app = await createTestApp({ env: { ...PRODUCTION, METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' } });
    });
    afterAll(() => app.close());

    it('is not served on the app’s public port', async () => {
      for (const accept of ['text/plain', 'text/html', '*/*']) {
        const response = await app.server.inject({ url: '/metrics', headers: { accept } });
        expect(response.statusCode, accept).toBe(404);
        expect(response.body).not.toContain('timeboxer_');
      }
    });

    it('is served on its own port, which serves nothing of the app', async () => {
      const origin = app.metricsServer?.origin;
      expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const metrics = await fetch(`${origin}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('content-type')).toContain('text/plain');
      expect(await metrics.text()).toContain('# TYPE timeboxer_sync_runs_total counter');
      expect((await fetch(`${origin}/healthz`)).status).toBe(200);
      for (const path of ['/', '/api/config', '/metrics/../api/config']) {
        expect((await fetch(`${origin}${path}`)).status, path).toBe(404);
      }
      expect((await fetch(`${origin}/metrics`, { method: 'POST' })).status).toBe(405);
    });
  });

  describe('without METRICS_PORT', () => {
    const app = useTestApp({ env: PRODUCTION });

    it('answers 404 everywhere when no METRICS_PORT is configured', async () => {
      expect(app().metricsServer).toBeNull();
      expect((await app().server.inject({ url: '/metrics' })).statusCode).toBe(404);
    });
  });
});

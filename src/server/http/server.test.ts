import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '#server/app.ts';
import { PRODUCTION_ENV } from '#server/test/production-env.ts';
import { createTestApp, useTestApp } from '#server/test/test-app.ts';

describe('the HTTP server', () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('GET /healthz says the process is up', async () => {
    const response = await app.server.inject({ url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz says the database is reachable and migrated', async () => {
    const response = await app.server.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ready', database: 'pglite' });
  });

  it('GET /api/config tells the browser only public settings', async () => {
    const response = await app.server.inject({ url: '/api/config' });
    expect(response.json()).toEqual({
      supportEmail: 'support@timeboxer.app',
      sandbox: true,
      analyticsScriptUrl: null,
      chatWidgetScriptUrl: null,
    });
  });

  it('sends security headers on every response', async () => {
    const response = await app.server.inject({ url: '/healthz' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('serves the markdown documents', async () => {
    for (const name of ['privacy', 'terms', 'legal', 'changelog', 'documentation']) {
      const response = await app.server.inject({ url: `/content/${name}.md` });
      expect(response.statusCode, name).toBe(200);
      expect(response.body.startsWith('# '), name).toBe(true);
    }
  });

  it('answers unknown API paths with a JSON 404, never the web app', async () => {
    const response = await app.server.inject({ url: '/api/nothing-here', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'not_found' });
  });

  it('answers a page request with the web app (or says how to build it)', async () => {
    const response = await app.server.inject({ url: '/dashboard', headers: { accept: 'text/html' } });
    if (response.statusCode === 200) {
      expect(response.body).toContain('<div id="root">');
    } else {
      expect(response.statusCode).toBe(503);
      expect(response.body).toContain('npm run build:web');
    }
  });
});

describe('the HTTP server with third-party scripts configured', () => {
  const app = useTestApp({
    env: {
      ANALYTICS_SCRIPT_URL: 'https://analytics.example/tracker.js',
      CHAT_WIDGET_SCRIPT_URL: 'https://chat.example/widget.js',
    },
  });

  it('tells the browser the scripts and allows only their origins', async () => {
    const config = (await app().server.inject({ url: '/api/config' })).json();
    expect(config.analyticsScriptUrl).toBe('https://analytics.example/tracker.js');
    expect(config.chatWidgetScriptUrl).toBe('https://chat.example/widget.js');
    const csp = String((await app().server.inject({ url: '/healthz' })).headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://analytics.example https://chat.example");
    expect(csp).not.toContain('tracker.js');
  });
});

describe('the HTTP server in production', () => {
  const app = useTestApp({ env: PRODUCTION_ENV });

  it('sends HSTS and a __Host- session cookie name', async () => {
    expect(app().emulators).toBeNull();
    const response = await app().server.inject({ url: '/healthz' });
    expect(response.headers['strict-transport-security']).toContain('max-age=31536000');
    const logout = await app().server.inject({
      url: '/api/logout',
      headers: { 'sec-fetch-site': 'same-origin' },
      cookies: { '__Host-sid': 'x' },
    });
    const cleared = logout.cookies.find((cookie) => cookie.name === '__Host-sid');
    expect(cleared).toMatchObject({ secure: true, path: '/', httpOnly: true });
  });
});

import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfPlugin } from './csrf.plugin.ts';
import { errorsPlugin } from './errors.plugin.ts';

const APP_ORIGIN = 'http://localhost:3000';

describe('csrfPlugin', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    await app.register(errorsPlugin);
    await app.register(csrfPlugin, { appOrigin: APP_ORIGIN });
    app.post('/change', async () => ({ changed: true }));
    app.get('/read', async () => ({ read: true }));
    app.get('/link-that-changes', { config: { stateChangingGet: true } }, async () => ({ changed: true }));
    app.post('/webhook', { config: { skipCsrf: true } }, async () => ({ received: true }));
    await app.ready();
  });
  afterAll(() => app.close());

  const post = (headers: Record<string, string>) => app.inject({ method: 'POST', url: '/change', headers });

  it('accepts a same-origin request by Fetch Metadata', async () => {
    expect((await post({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
  });

  it.each(['cross-site', 'same-site', 'none'])('refuses Sec-Fetch-Site %s', async (site) => {
    const response = await post({ 'sec-fetch-site': site, origin: APP_ORIGIN });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'cross_site_request' });
  });

  it('falls back to the Origin header, then to Referer', async () => {
    expect((await post({ origin: APP_ORIGIN })).statusCode).toBe(200);
    expect((await post({ origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await post({ referer: `${APP_ORIGIN}/profile` })).statusCode).toBe(200);
    expect((await post({ referer: 'https://evil.example/x' })).statusCode).toBe(403);
    expect((await post({ referer: 'not a url' })).statusCode).toBe(403);
  });

  it('refuses a state-changing request with no browser headers at all', async () => {
    expect((await post({})).statusCode).toBe(403);
  });

  it('lets reads through from anywhere, but not a GET that changes state', async () => {
    expect((await app.inject({ url: '/read', headers: { 'sec-fetch-site': 'cross-site' } })).statusCode).toBe(
      200,
    );
    const cross = await app.inject({
      url: '/link-that-changes',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(cross.statusCode).toBe(403);
    const same = await app.inject({
      url: '/link-that-changes',
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(same.statusCode).toBe(200);
  });

  it('lets signed webhooks opt out', async () => {
    expect((await app.inject({ method: 'POST', url: '/webhook' })).statusCode).toBe(200);
  });

  it('varies responses on the headers it reads', async () => {
    const response = await app.inject({ url: '/read' });
    expect(response.headers.vary).toContain('Sec-Fetch-Site');
  });
});

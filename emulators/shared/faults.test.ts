import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FaultController, installFaults } from './faults.ts';

describe('installFaults', () => {
  let app: FastifyInstance;
  let faults: FaultController;
  let stored: number;
  beforeEach(async () => {
    stored = 0;
    app = Fastify({ forceCloseConnections: true });
    faults = installFaults(app, { errorBody: (status) => ({ error: { code: status } }) });
    app.get('/v1/things', async () => ({ ok: true }));
    app.post('/v1/things', async () => {
      stored += 1;
      return { created: true };
    });
    app.delete('/v1/things', async (_request, reply) => {
      stored -= 1;
      return reply.code(204).send();
    });
    await app.ready();
  });
  afterEach(() => app.close());

  it('answers normally without rules', async () => {
    expect((await app.inject({ url: '/v1/things' })).json()).toEqual({ ok: true });
  });

  it('throttles matching requests with Retry-After and the vendor body, a set number of times', async () => {
    faults.add({ kind: 'rate-limit', path: '/v1/', retryAfterSeconds: 7, times: 2 });
    const first = await app.inject({ url: '/v1/things' });
    expect(first.statusCode).toBe(429);
    expect(first.headers['retry-after']).toBe('7');
    expect(first.json()).toEqual({ error: { code: 429 } });
    expect((await app.inject({ url: '/v1/things' })).statusCode).toBe(429);
    expect((await app.inject({ url: '/v1/things' })).statusCode).toBe(200);
  });

  it('lets the first matching requests through when told to skip them', async () => {
    faults.add({ kind: 'status', status: 503, method: 'POST', path: '/v1/things', skip: 1, times: 1 });
    expect((await app.inject({ method: 'POST', url: '/v1/things' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/v1/things' })).statusCode).toBe(503);
    expect((await app.inject({ method: 'POST', url: '/v1/things' })).statusCode).toBe(200);
  });

  it('fails only the requests of the client whose bearer token it names', async () => {
    faults.add({ kind: 'status', status: 503, bearer: 'app-token' });
    const as = (token: string) => ({ url: '/v1/things', headers: { authorization: `Bearer ${token}` } });
    expect((await app.inject(as('user-token'))).statusCode).toBe(200);
    expect((await app.inject({ url: '/v1/things' })).statusCode).toBe(200);
    expect((await app.inject(as('app-token'))).statusCode).toBe(503);
  });

  it('fails only the method and path it names', async () => {
    faults.add({ kind: 'status', status: 503, method: 'post', path: '^/v1/things$' });
    expect((await app.inject({ method: 'POST', url: '/v1/things' })).statusCode).toBe(503);
    expect((await app.inject({ url: '/v1/things' })).statusCode).toBe(200);
  });

  it('adds latency before answering', async () => {
    faults.add({ kind: 'latency', latencyMs: 120 });
    const started = Date.now();
    expect((await app.inject({ url: '/v1/things' })).statusCode).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('hangs until the client gives up', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    faults.add({ kind: 'hang', times: 1 });
    await expect(
      fetch(`http://127.0.0.1:${port}/v1/things`, { signal: AbortSignal.timeout(300) }),
    ).rejects.toThrow();
    expect((await fetch(`http://127.0.0.1:${port}/v1/things`)).status).toBe(200);
  });

  it('is controlled over HTTP, and never affects the control routes', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/_emulator/faults',
      payload: { kind: 'status', status: 500 },
    });
    expect(created.statusCode).toBe(201);
    expect((await app.inject({ url: '/v1/things' })).statusCode).toBe(500);
    expect((await app.inject({ url: '/_emulator/faults' })).json().rules).toHaveLength(1);
    expect(
      (await app.inject({ method: 'POST', url: '/_emulator/faults', payload: { kind: 'nope' } })).statusCode,
    ).toBe(400);
    await app.inject({ method: 'DELETE', url: '/_emulator/faults' });
    expect((await app.inject({ url: '/v1/things' })).statusCode).toBe(200);
  });

  it('takes one rule away by its id, leaving the others', async () => {
    const add = async (path: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/_emulator/faults',
          payload: { kind: 'status', status: 503, path },
        })
      ).json().id as number;
    const first = await add('/v1/things');
    await add('/v1/others');
    const removed = await app.inject({ method: 'DELETE', url: `/_emulator/faults/${first}` });
    expect(removed.json()).toEqual({ removed: true });
    expect((await app.inject({ url: '/v1/things' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/v1/others' })).statusCode).toBe(503);
    expect((await app.inject({ method: 'DELETE', url: `/_emulator/faults/${first}` })).json()).toEqual({
      removed: false,
    });
  });

  it("applies a write and then loses its response as a 5xx, for the rule's count", async () => {
    faults.add({ kind: 'lose-response', status: 503, method: 'POST', path: '/v1/things', times: 1 });
    const lost = await app.inject({ method: 'POST', url: '/v1/things' });
    expect(lost.statusCode).toBe(503);
    expect(lost.json()).toEqual({ error: { code: 503 } });
    expect(stored).toBe(1);
    expect((await app.inject({ method: 'POST', url: '/v1/things' })).statusCode).toBe(200);
    expect(stored).toBe(2);
  });

  it('applies a write at once and holds its answer back for a late response', async () => {
    faults.add({ kind: 'late-response', latencyMs: 300, method: 'POST', times: 1 });
    const answer = app.inject({ method: 'POST', url: '/v1/things' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stored).toBe(1);
    let answered = false;
    void answer.then(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    expect((await answer).json()).toEqual({ created: true });
  });

  it('turns a body-less 204 into a 500 with the vendor body', async () => {
    faults.add({ kind: 'lose-response', method: 'DELETE' });
    const lost = await app.inject({ method: 'DELETE', url: '/v1/things' });
    expect(lost.statusCode).toBe(500);
    expect(lost.json()).toEqual({ error: { code: 500 } });
    expect(stored).toBe(-1);
  });

  it('can drop the connection after the write instead of answering', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    faults.add({ kind: 'lose-response', drop: true, times: 1 });
    await expect(fetch(`http://127.0.0.1:${port}/v1/things`, { method: 'POST' })).rejects.toThrow();
    expect(stored).toBe(1);
    expect((await fetch(`http://127.0.0.1:${port}/v1/things`, { method: 'POST' })).status).toBe(200);
  });

  it('refuses a lost response with a non-5xx status', async () => {
    const refused = await app.inject({
      method: 'POST',
      url: '/_emulator/faults',
      payload: { kind: 'lose-response', status: 404 },
    });
    expect(refused.statusCode).toBe(400);
  });
});

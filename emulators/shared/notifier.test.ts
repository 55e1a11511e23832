import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNotifier } from './notifier.ts';

describe('createNotifier', () => {
  let receiver: FastifyInstance;
  let url: string;
  let received: string[] = [];
  let failNext = 0;

  beforeAll(async () => {
    receiver = Fastify();
    receiver.addContentTypeParser('text/plain', { parseAs: 'string' }, (_req, body, done) =>
      done(null, body),
    );
    receiver.post('/hook', async (request, reply) => {
      if (failNext > 0) {
        failNext -= 1;
        return reply.code(500).send();
      }
      received.push(String(request.body));
      return reply.code(200).send();
    });
    await receiver.listen({ port: 0, host: '127.0.0.1' });
    const address = receiver.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  });
  afterAll(() => receiver.close());
  beforeEach(() => {
    received = [];
    failNext = 0;
  });

  const notification = (body: string) => ({ url, headers: { 'content-type': 'text/plain' }, body });

  it('delivers in order', async () => {
    const notifier = createNotifier({ retries: 0, retryBaseDelayMs: 1 });
    notifier.send(notification('a'));
    await notifier.flush();
    notifier.send(notification('b'));
    await notifier.flush();
    expect(received).toEqual(['a', 'b']);
  });

  it('retries a failed delivery with backoff', async () => {
    const notifier = createNotifier({ retries: 2, retryBaseDelayMs: 5 });
    failNext = 2;
    notifier.send(notification('retry-me'));
    await notifier.flush();
    expect(received).toEqual(['retry-me']);
    expect(notifier.deliveries().map((d) => d.status)).toEqual([500, 500, 200]);
  });

  it('drops, duplicates and reorders when told to', async () => {
    const notifier = createNotifier({ retries: 0, retryBaseDelayMs: 1 });
    notifier.setFault({ mode: 'drop', times: 1 });
    notifier.send(notification('dropped'));
    notifier.setFault({ mode: 'duplicate', times: 1 });
    notifier.send(notification('twice'));
    await notifier.flush();
    notifier.setFault({ mode: 'reorder', times: 1 });
    notifier.send(notification('first'));
    await notifier.flush();
    expect(received).toEqual(['twice', 'twice', 'first']);

    received = [];
    notifier.setFault({ mode: 'reorder', times: 1 });
    notifier.send(notification('one'));
    notifier.send(notification('two'));
    await notifier.flush();
    expect(received.sort()).toEqual(['one', 'two']);
    expect(notifier.deliveries().at(-2)?.body).toBe('two');
  });

  it('delays a notification', async () => {
    const notifier = createNotifier({ retries: 0, retryBaseDelayMs: 1 });
    notifier.setFault({ mode: 'delay', delayMs: 150, times: 1 });
    const started = Date.now();
    notifier.send(notification('late'));
    await notifier.flush();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(received).toEqual(['late']);
  });
});

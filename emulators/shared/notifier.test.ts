import { beforeEach, describe, expect, it } from 'vitest';
import { createNotifier, retryOnServerErrors } from './notifier.ts';
import { setUpReceiver } from './testing/set-up-receiver.ts';

describe('createNotifier', () => {
  let received: string[] = [];
  let failNext = 0;
  let failStatus = 500;

  const receiver = setUpReceiver('/hook', (body) => {
    if (failNext > 0) {
      failNext -= 1;
      return failStatus;
    }
    received.push(body);
    return undefined;
  });
  beforeEach(() => {
    received = [];
    failNext = 0;
    failStatus = 500;
  });

  const notification = (body: string) => ({
    url: receiver.address(),
    headers: { 'content-type': 'text/plain' },
    body,
  });

  it('delivers in order', async () => {
    const notifier = createNotifier({ retries: 0, retryBaseDelayMs: 1 });
    notifier.send(notification('a'));
    await notifier.flush();
    notifier.send(notification('b'));
    await notifier.flush();
    expect(received).toEqual(['a', 'b']);
  });

  it('keeps the most recent deliveries in its log, not every one', async () => {
    const notifier = createNotifier({ retries: 0, retryBaseDelayMs: 1, keep: 10 });
    for (let index = 0; index < 25; index++) notifier.send(notification(`n${index}`));
    await notifier.flush();
    expect(received).toHaveLength(25);
    const kept = notifier.deliveries().map((delivery) => delivery.body);
    expect(kept.length).toBeGreaterThanOrEqual(10);
    expect(kept.length).toBeLessThanOrEqual(11);
    expect(kept.at(-1)).toBe('n24');
    expect(kept).not.toContain('n0');
  });

  it('retries a failed delivery with backoff', async () => {
    const notifier = createNotifier({ retries: 2, retryBaseDelayMs: 5 });
    failNext = 2;
    notifier.send(notification('retry-me'));
    await notifier.flush();
    expect(received).toEqual(['retry-me']);
    expect(notifier.deliveries().map((d) => d.status)).toEqual([500, 500, 200]);
  });

  it('waits twice as long before each next retry, or the same time with fixed spacing', async () => {
    const waits: number[] = [];
    const recordWait = async (ms: number) => {
      waits.push(ms);
    };
    const doubling = createNotifier({ retries: 3, retryBaseDelayMs: 1000, sleep: recordWait });
    failNext = 3;
    doubling.send(notification('doubling'));
    await doubling.flush();
    expect(waits).toEqual([1000, 2000, 4000]);

    waits.length = 0;
    const fixed = createNotifier({
      retries: 3,
      retryBaseDelayMs: 900_000,
      retrySpacing: 'fixed',
      sleep: recordWait,
    });
    failNext = 10;
    fixed.send(notification('fixed'));
    await fixed.flush();
    // Three retries 15 minutes apart, then no more: four attempts in all.
    expect(waits).toEqual([900_000, 900_000, 900_000]);
    expect(fixed.deliveries().map((d) => [d.attempt, d.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
      [4, 500],
    ]);
  });

  it('forgets a delivery waiting for its retry on reset or stop, and gives nothing up', async () => {
    const givenUp: string[] = [];
    for (const end of ['reset', 'stop'] as const) {
      const notifier = createNotifier({
        retries: 3,
        retryBaseDelayMs: 900_000,
        retrySpacing: 'fixed',
        onGiveUp: (given) => givenUp.push(given.body),
      });
      failNext = 1;
      notifier.send(notification(`waiting-${end}`));
      while (notifier.deliveries().length === 0) await new Promise((resolve) => setImmediate(resolve));
      notifier[end]();
      // The retry 15 minutes away is not waited for.
      await notifier.flush();
      expect(received).toEqual([]);
    }
    expect(givenUp).toEqual([]);
  });

  it('retries only the statuses the sender retries (Google: 5xx, not 4xx)', async () => {
    const google = createNotifier({ retries: 2, retryBaseDelayMs: 1, retryOn: retryOnServerErrors });
    failStatus = 404;
    failNext = 1;
    google.send(notification('not-retried'));
    await google.flush();
    expect(received).toEqual([]);
    expect(google.deliveries().map((d) => d.status)).toEqual([404]);

    failStatus = 503;
    failNext = 1;
    google.send(notification('retried'));
    await google.flush();
    expect(received).toEqual(['retried']);
    expect(google.deliveries().map((d) => d.status)).toEqual([404, 503, 200]);

    // Without `retryOn` (Todoist, Stripe) any failure is retried.
    const todoist = createNotifier({ retries: 1, retryBaseDelayMs: 1 });
    failStatus = 404;
    failNext = 1;
    todoist.send(notification('retried-4xx'));
    await todoist.flush();
    expect(todoist.deliveries().map((d) => d.status)).toEqual([404, 200]);
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

  it('sends again, with the same body and headers, a notification whose answer was lost', async () => {
    const notifier = createNotifier({ retries: 3, retryBaseDelayMs: 1 });
    notifier.setFault({ mode: 'lose-answer', times: 1 });
    notifier.send(notification('twice'));
    notifier.send(notification('once'));
    await notifier.flush();
    // The receiver got the first one twice: once before its answer was lost, once on the retry.
    expect(received.filter((body) => body === 'twice')).toHaveLength(2);
    expect(received.filter((body) => body === 'once')).toHaveLength(1);
    const attempts = notifier.deliveries().filter((delivery) => delivery.body === 'twice');
    expect(attempts.map((delivery) => delivery.status)).toEqual(['answer-lost', 200]);
  });

  it('gives a notification whose answer was lost up when no retry is left', async () => {
    const notifier = createNotifier({ retries: 0, retryBaseDelayMs: 1 });
    notifier.setFault({ mode: 'lose-answer' });
    notifier.send(notification('lost'));
    await notifier.flush();
    expect(received).toEqual(['lost']);
    expect(notifier.deliveries().map((delivery) => delivery.status)).toEqual(['answer-lost']);
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

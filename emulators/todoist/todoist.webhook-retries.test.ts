import { beforeEach, describe, expect, it } from 'vitest';
import { type ReceivedHeaders, setUpReceiver } from '../shared/testing/set-up-receiver.ts';
import { control, setUpSeededTodoist } from './todoist.test-support.ts';
import { WEBHOOK_RETRIES, WEBHOOK_RETRY_SECONDS } from './todoist.webhooks.ts';

/**
 * Todoist's retry schedule (docs/provider-facts.md §8): a delivery the app did not answer with 200 is
 * tried again after 15 minutes, at most 3 times, with the same `X-Todoist-Delivery-ID`. The waits are
 * recorded by an injected sleep, so nothing here waits for them.
 */

let answers: number[] = [];
let received: ReceivedHeaders[] = [];
let waits: number[] = [];
const receiver = setUpReceiver('/todoist', (_body, headers) => {
  received.push(headers);
  return answers.shift();
});

describe('Todoist webhook retries, at Todoist’s own spacing', () => {
  const todoist = setUpSeededTodoist(
    { email: 'ada@example.com', name: 'Ada' },
    {
      webhookSleep: async (ms) => {
        waits.push(ms);
      },
    },
  );
  beforeEach(async () => {
    await control(todoist.origin, 'webhook', { url: receiver.address() });
    answers = [];
    received = [];
    waits = [];
  });
  const deliveries = async () => {
    const response = await control(todoist.origin, 'notifications/flush');
    return ((await response.json()) as { deliveries: { attempt: number; status: number }[] }).deliveries;
  };

  it('retries a refused delivery after 15 minutes, at most 3 times, with the same delivery id', async () => {
    expect([WEBHOOK_RETRY_SECONDS, WEBHOOK_RETRIES]).toEqual([900, 3]);
    answers = [503, 500, 202, 204];
    await todoist.api.addTask({ content: 'Never acknowledged' });
    const log = await deliveries();
    expect(log.map((delivery) => [delivery.attempt, delivery.status])).toEqual([
      [1, 503],
      [2, 500],
      [3, 202],
      [4, 204],
    ]);
    expect(waits).toEqual([900_000, 900_000, 900_000]);
    const ids = received.map((headers) => headers['x-todoist-delivery-id']);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(1);
  });

  it('stops retrying once a retry is answered with 200', async () => {
    answers = [500];
    await todoist.api.addTask({ content: 'Second time lucky' });
    expect((await deliveries()).map((delivery) => delivery.status)).toEqual([500, 200]);
    expect(waits).toEqual([900_000]);
  });

  it('gives each new event a delivery id of its own', async () => {
    await todoist.api.addTask({ content: 'One' });
    await todoist.api.addTask({ content: 'Two' });
    await deliveries();
    expect(new Set(received.map((headers) => headers['x-todoist-delivery-id'])).size).toBe(2);
    expect(waits).toEqual([]);
  });
});

describe('Todoist webhook retries, scaled for tests and the sandbox', () => {
  const todoist = setUpSeededTodoist(
    { email: 'grace@example.com', name: 'Grace' },
    {
      webhookRetrySeconds: 2,
      webhookSleep: async (ms) => {
        waits.push(ms);
      },
    },
  );
  beforeEach(async () => {
    await control(todoist.origin, 'webhook', { url: receiver.address() });
    answers = [];
    received = [];
    waits = [];
  });

  it('waits the configured seconds before each retry instead', async () => {
    answers = [503, 503];
    await todoist.api.addTask({ content: 'Scaled' });
    await control(todoist.origin, 'notifications/flush');
    expect(waits).toEqual([2000, 2000]);
    expect(received).toHaveLength(3);
  });
});

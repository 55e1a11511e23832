import { createHmac } from 'node:crypto';
import { parseWebhookPayload, verifyWebhookSignature } from '@doist/todoist-sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ReceivedHeaders, setUpReceiver } from '../shared/testing/set-up-receiver.ts';
import { control, sdk, seedUser, setUpSeededTodoist, TEST_APP } from './todoist.test-support.ts';

type Received = { body: string; headers: ReceivedHeaders };

let received: Received[] = [];
let failNext = 0;
/** What the receiver answers once it takes a delivery (undefined: 200). */
let answer: number | undefined;

const receiver = setUpReceiver('/todoist', (body, headers) => {
  if (failNext > 0) {
    failNext -= 1;
    return 503;
  }
  received.push({ body, headers });
  return answer;
});
const todoist = setUpSeededTodoist(
  { email: 'ada@example.com', name: 'Ada' },
  { webhookRetries: 2, webhookRetrySeconds: 0.005 },
);
beforeEach(async () => {
  await control(todoist.origin, 'webhook', { url: receiver.address() });
  received = [];
  failNext = 0;
  answer = undefined;
});

async function flush(): Promise<void> {
  await control(todoist.origin, 'notifications/flush');
}

function events(): {
  event_name: string;
  event_data: Record<string, unknown>;
  event_data_extra?: Record<string, unknown>;
}[] {
  return received.map((entry) => JSON.parse(entry.body));
}

describe('delivery', () => {
  it('posts a signed item:added the SDK can verify and parse', async () => {
    const task = await todoist.api.addTask({
      content: 'Hello',
      dueDatetime: '2030-01-01T09:00:00Z',
      duration: 30,
      durationUnit: 'minute',
    });
    await flush();
    expect(received).toHaveLength(1);
    const [delivery] = received;
    const body = delivery?.body ?? '';
    const signature = String(delivery?.headers['x-todoist-hmac-sha256']);
    expect(signature).toBe(createHmac('sha256', TEST_APP.clientSecret).update(body).digest('base64'));
    expect(
      await verifyWebhookSignature({ rawBody: body, signature, clientSecret: TEST_APP.clientSecret }),
    ).toBe(true);
    expect(await verifyWebhookSignature({ rawBody: body, signature, clientSecret: 'other' })).toBe(false);
    expect(delivery?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Todoist-Webhooks',
      'x-todoist-delivery-id': expect.any(String),
    });
    const payload = parseWebhookPayload(JSON.parse(body));
    expect(payload).toMatchObject({
      eventName: 'item:added',
      userId: todoist.user.id,
      version: '1',
      initiator: { id: todoist.user.id, email: 'ada@example.com', fullName: 'Ada', isPremium: false },
      eventData: { id: task.id, content: 'Hello', duration: { amount: 30, unit: 'minute' } },
    });
  });

  it('sends updated (with old_item), completed, uncompleted and deleted events', async () => {
    const task = await todoist.api.addTask({ content: 'Draft' });
    await todoist.api.updateTask(task.id, { content: 'Final' });
    await todoist.api.closeTask(task.id);
    await todoist.api.reopenTask(task.id);
    await todoist.api.deleteTask(task.id);
    await flush();
    expect(events().map((event) => event.event_name)).toEqual([
      'item:added',
      'item:updated',
      'item:completed',
      'item:uncompleted',
      'item:deleted',
    ]);
    const [, update, completed, , deleted] = events();
    expect(update?.event_data).toMatchObject({ content: 'Final' });
    expect(update?.event_data_extra).toMatchObject({
      old_item: { content: 'Draft' },
      update_intent: 'item_updated',
    });
    expect(completed?.event_data).toMatchObject({ checked: true });
    expect(deleted?.event_data).toMatchObject({ is_deleted: true });
    for (const entry of received) expect(() => parseWebhookPayload(JSON.parse(entry.body))).not.toThrow();
  });

  it('carries the updated_at the API returned, so the app can recognise its own change', async () => {
    const task = await todoist.api.addTask({ content: 'Mine' });
    const response = await fetch(`${todoist.origin}/api/v1/tasks/${task.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${todoist.user.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Changed by the app' }),
    });
    const { updated_at } = (await response.json()) as { updated_at: string };
    expect(updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    await flush();
    expect(events().at(-1)).toMatchObject({ event_name: 'item:updated', event_data: { updated_at } });
  });

  it('sends item:updated with update_intent item_completed for a recurring task', async () => {
    const task = await todoist.api.addTask({
      content: 'Daily',
      dueString: 'every day',
      dueDate: '2030-01-01',
    });
    await todoist.api.closeTask(task.id);
    await flush();
    const [, rolled] = events();
    expect(rolled).toMatchObject({
      event_name: 'item:updated',
      event_data: { due: { date: '2030-01-02', is_recurring: true } },
      event_data_extra: { update_intent: 'item_completed', old_item: { due: { date: '2030-01-01' } } },
    });
  });

  it('sends label events with item_order and is_deleted', async () => {
    const label = await todoist.api.addLabel({ name: '30min' });
    await todoist.api.updateLabel(label.id, { color: 'red' });
    await todoist.api.deleteLabel(label.id);
    await flush();
    expect(events().map((event) => [event.event_name, event.event_data])).toEqual([
      [
        'label:added',
        {
          id: label.id,
          name: '30min',
          color: 'charcoal',
          item_order: 1,
          is_deleted: false,
          is_favorite: false,
        },
      ],
      ['label:updated', expect.objectContaining({ color: 'red' })],
      ['label:deleted', expect.objectContaining({ is_deleted: true })],
    ]);
    for (const entry of received) expect(() => parseWebhookPayload(JSON.parse(entry.body))).not.toThrow();
  });

  it('fires for Sync commands too', async () => {
    await todoist.api.sync({
      commands: [{ type: 'item_add', uuid: 'u-1', tempId: 't-1', args: { content: 'Synced' } }],
    });
    await flush();
    expect(events()).toEqual([
      expect.objectContaining({
        event_name: 'item:added',
        event_data: expect.objectContaining({ content: 'Synced' }),
      }),
    ]);
  });

  it('fires only for users who authorized the app', async () => {
    const personal = await seedUser(todoist.origin, { email: 'solo@example.com', authorize: false });
    await sdk(todoist.origin, personal.personalToken).addTask({ content: 'Not for the app' });
    await todoist.api.addTask({ content: 'For the app' });
    await flush();
    expect(events().map((event) => event.event_data.content)).toEqual(['For the app']);
  });

  it('honours the configured event list and an unset URL', async () => {
    await control(todoist.origin, 'webhook', { events: ['item:completed'] });
    const task = await todoist.api.addTask({ content: 'Quiet' });
    await todoist.api.closeTask(task.id);
    await control(todoist.origin, 'webhook', { url: null });
    await todoist.api.reopenTask(task.id);
    await flush();
    expect(events().map((event) => event.event_name)).toEqual(['item:completed']);
  });
});

describe('failures and faults', () => {
  it('retries a failed delivery with the same delivery id', async () => {
    failNext = 2;
    await todoist.api.addTask({ content: 'Retry me' });
    await flush();
    expect(received).toHaveLength(1);
    const state = (await (await fetch(`${todoist.origin}/_emulator/state`)).json()) as {
      deliveries: { status: number }[];
    };
    expect(state.deliveries.map((delivery) => delivery.status)).toEqual([503, 503, 200]);
  });

  it('counts only a 200 as delivered: a 202 or 204 is tried again, as Todoist does', async () => {
    answer = 202;
    await todoist.api.addTask({ content: 'Accepted is not enough' });
    await flush();
    // Two retries (this file's setting), all with the same delivery id.
    expect(received).toHaveLength(3);
    expect(new Set(received.map((entry) => entry.headers['x-todoist-delivery-id'])).size).toBe(1);
  });

  it('drops, duplicates, reorders and delays notifications when told to', async () => {
    await control(todoist.origin, 'notifications/faults', { mode: 'drop', times: 1 });
    await todoist.api.addTask({ content: 'dropped' });
    await control(todoist.origin, 'notifications/faults', { mode: 'duplicate', times: 1 });
    await todoist.api.addTask({ content: 'twice' });
    await flush();
    expect(events().map((event) => event.event_data.content)).toEqual(['twice', 'twice']);
    expect(received[0]?.headers['x-todoist-delivery-id']).toBe(received[1]?.headers['x-todoist-delivery-id']);

    received = [];
    await control(todoist.origin, 'notifications/faults', { mode: 'reorder', times: 1 });
    await todoist.api.addTask({ content: 'first' });
    await todoist.api.addTask({ content: 'second' });
    await flush();
    expect(
      events()
        .map((event) => event.event_data.content)
        .sort(),
    ).toEqual(['first', 'second']);

    received = [];
    await control(todoist.origin, 'notifications/faults', { mode: 'delay', delayMs: 120, times: 1 });
    const started = Date.now();
    await todoist.api.addTask({ content: 'late' });
    await flush();
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    expect(events().map((event) => event.event_data.content)).toEqual(['late']);

    await fetch(`${todoist.origin}/_emulator/notifications/faults`, { method: 'DELETE' });
  });
});

import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTodoistWebhookReader } from './todoist-webhook.ts';

const SECRET = 'client-secret';
const signed = (payload: unknown, secret = SECRET) => {
  const body = Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload));
  return { body, signature: createHmac('sha256', secret).update(body).digest('base64') };
};

describe('Todoist webhooks', () => {
  const read = createTodoistWebhookReader(SECRET);

  it('reads the account of a signed event, and a completed occurrence of a recurring task', () => {
    const plain = signed({ event_name: 'item:added', user_id: 42, event_data: { id: 't1' } });
    expect(read(plain.body, plain.signature)).toEqual({
      kind: 'event',
      todoistUserId: '42',
      completedOccurrence: null,
    });
    const occurrence = signed({
      event_name: 'item:updated',
      user_id: '42',
      event_data: { id: 't2' },
      event_data_extra: { update_intent: 'item_completed', old_item: { due: { is_recurring: true } } },
    });
    expect(read(occurrence.body, occurrence.signature)).toMatchObject({ completedOccurrence: 't2' });
  });

  it('rejects what Todoist did not sign, and everything when Todoist is not configured', () => {
    const forged = signed({ event_name: 'item:added', user_id: 42 }, 'another-secret');
    expect(read(forged.body, forged.signature)).toEqual({ kind: 'rejected' });
    expect(read(forged.body, undefined)).toEqual({ kind: 'rejected' });
    const good = signed({ event_name: 'item:added', user_id: 42 });
    expect(createTodoistWebhookReader(null)(good.body, good.signature)).toEqual({ kind: 'rejected' });
  });

  it('ignores a signed body that is not an event', () => {
    const junk = signed('not json');
    expect(read(junk.body, junk.signature)).toEqual({ kind: 'ignored' });
    const partial = signed({ event_name: 'item:added' });
    expect(read(partial.body, partial.signature)).toEqual({ kind: 'ignored' });
  });
});

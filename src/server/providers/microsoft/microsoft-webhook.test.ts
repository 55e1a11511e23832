import { describe, expect, it } from 'vitest';
import { clientStateMatches, parseGraphNotifications } from './microsoft-webhook.ts';

describe('Graph change notifications', () => {
  it('reads change and lifecycle notifications, from text or parsed JSON', () => {
    const body = {
      value: [
        {
          subscriptionId: 's1',
          clientState: 'secret',
          changeType: 'updated',
          resource: 'Users/u/Events/e',
          resourceData: { id: 'e' },
          tenantId: 't',
        },
        { subscriptionId: 's2', clientState: null, lifecycleEvent: 'reauthorizationRequired' },
        { subscriptionId: 's3', lifecycleEvent: 'somethingNew' },
      ],
    };
    const expected = [
      { subscriptionId: 's1', clientState: 'secret' },
      { subscriptionId: 's2', clientState: null, lifecycleEvent: 'reauthorizationRequired' },
      { subscriptionId: 's3', clientState: null, lifecycleEvent: 'unknown' },
    ];
    expect(parseGraphNotifications(body)).toEqual(expected);
    expect(parseGraphNotifications(JSON.stringify(body))).toEqual(expected);
  });

  it('names the event and its change key for a create or update, never for a deletion', () => {
    const item = (changeType: string, etag?: string) => ({
      subscriptionId: 's1',
      clientState: 'secret',
      changeType,
      resourceData: { id: 'e1', ...(etag === undefined ? {} : { '@odata.etag': etag }) },
    });
    const parsed = parseGraphNotifications({
      value: [
        item('created', 'W/"key-1"'),
        item('updated', '"key-2"'),
        item('deleted', 'W/"key-3"'),
        item('updated'),
        item('updated', 'not an etag'),
      ],
    });
    expect(parsed?.map((notification) => notification.changed)).toEqual([
      { eventId: 'e1', version: 'key-1' },
      { eventId: 'e1', version: 'key-2' },
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('refuses what is not a notification body', () => {
    expect(parseGraphNotifications('not json')).toBeNull();
    expect(parseGraphNotifications({ value: [] })).toBeNull();
    expect(parseGraphNotifications({ value: [{ clientState: 'x' }] })).toBeNull();
    expect(parseGraphNotifications(null)).toBeNull();
  });

  it('compares clientState exactly, and never matches a missing one', () => {
    expect(clientStateMatches('secret', 'secret')).toBe(true);
    expect(clientStateMatches('secret!', 'secret')).toBe(false);
    expect(clientStateMatches(null, 'secret')).toBe(false);
    expect(clientStateMatches('', '')).toBe(false);
  });
});

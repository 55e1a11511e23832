import type { Notifier } from '../shared/notifier.ts';
import type { Channel, ChannelStore } from './google-calendar.channel-store.ts';
import type { StoredCalendar } from './google-calendar.store.ts';

export type ResourceState = 'sync' | 'exists' | 'not_exists';
export type Push = ReturnType<typeof createPush>;

const USER_AGENT = 'APIs-Google; (+https://developers.google.com/webmasters/APIs-Google.html)';

/**
 * Google push notifications: an empty POST to the channel's address whose headers say what happened.
 * `sync` right after the channel is created, then `exists` on every change to the watched events
 * (`not_exists` once the calendar is gone). Expired and stopped channels send nothing.
 */
export function createPush(notifier: Notifier, channels: ChannelStore) {
  let sent = 0;

  function send(channel: Channel, state: ResourceState): void {
    // Message numbers increase per channel, but not one by one (as Google's do not).
    channel.messageNumber = state === 'sync' ? 1 : channel.messageNumber + 1 + (sent % 3);
    sent += 1;
    const headers: Record<string, string> = {
      'content-type': 'application/json; utf-8',
      'user-agent': USER_AGENT,
      'x-goog-channel-id': channel.id,
      'x-goog-channel-expiration': new Date(channel.expirationMs).toUTCString(),
      'x-goog-message-number': String(channel.messageNumber),
      'x-goog-resource-id': channel.resourceId,
      'x-goog-resource-state': state,
      'x-goog-resource-uri': channel.resourceUri,
    };
    if (channel.token !== undefined) headers['x-goog-channel-token'] = channel.token;
    notifier.send({ url: channel.address, headers, body: '' });
  }

  return {
    sync(channel: Channel): void {
      send(channel, 'sync');
    },
    changed(calendar: StoredCalendar, state: 'exists' | 'not_exists'): void {
      for (const channel of channels.live(calendar.id)) send(channel, state);
    },
  };
}

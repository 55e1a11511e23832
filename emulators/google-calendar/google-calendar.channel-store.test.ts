import { describe, expect, it } from 'vitest';
import { type Channel, ChannelStore } from './google-calendar.channel-store.ts';

const HOUR_MS = 3_600_000;

function channel(id: string, calendarId: string): Omit<Channel, 'createdAt' | 'stoppedAt' | 'messageNumber'> {
  return {
    id,
    resourceId: `resource-${calendarId}`,
    resourceUri: `https://example.test/${calendarId}`,
    token: undefined,
    address: 'https://app.example.test/push',
    expirationMs: Date.now() + HOUR_MS,
    calendarId,
    email: 'ada@example.com',
    clientId: 'client',
  };
}

describe('ChannelStore', () => {
  it("lists a calendar's live channels only, in the order of the state view", () => {
    const channels = new ChannelStore();
    const first = channels.create(channel('one', 'work'));
    channels.create(channel('two', 'home'));
    const third = channels.create(channel('three', 'work'));
    expect(channels.live('work')).toEqual([first, third]);
    expect(channels.live('elsewhere')).toEqual([]);

    if (first) channels.stop(first);
    expect(channels.live('work')).toEqual([third]);
  });

  it("keeps a reused id's place, and moves it to the calendar it now watches", () => {
    const channels = new ChannelStore();
    const first = channels.create(channel('one', 'work'));
    const home = channels.create(channel('two', 'home'));
    expect(channels.create(channel('one', 'home'))).toBeUndefined();
    if (first) channels.expireNow(first);
    const reused = channels.create(channel('one', 'home'));
    expect(channels.live('work')).toEqual([]);
    expect(channels.live('home')).toEqual([reused, home]);
    expect(channels.snapshot().map((c) => [c.id, c.calendarId])).toEqual([
      ['one', 'home'],
      ['two', 'home'],
    ]);

    channels.reset();
    expect(channels.live('home')).toEqual([]);
  });
});

import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { CalendarTarget } from '../calendar-target.port.ts';
import type { SyncStateRepository } from '../store/sync-state.repository.ts';
import type { SyncSettings } from '../sync-settings.ts';
import type { SyncState } from '../sync-state.ts';
import { CHANNEL_RENEW_MARGIN_MS, createSyncChannels } from './sync-channels.ts';

const NOW = new Date('2026-11-26T12:00:00Z');

const settings = { calendarProvider: 'google', calendarId: 'work' } as SyncSettings;
const stateWith = (channel: Partial<SyncState>) =>
  ({ channelId: 'old', calendarId: 'work', calendarProvider: 'google', ...channel }) as SyncState;

/** The channel code with a calendar whose `watch` answers or fails; returns the renewals it reported. */
function channelsWith(watch: () => Promise<unknown>) {
  const renewals: string[] = [];
  const calendar = { watch, stopWatch: async () => {} } as unknown as CalendarTarget;
  const channels = createSyncChannels({
    states: { save: async () => {} } as unknown as SyncStateRepository,
    calendars: { google: calendar, microsoft: null },
    withToken: (_userId, _kind, call) => call('token'),
    clock: () => NOW,
    log: pino({ level: 'silent' }),
    publicOrigin: () => 'https://app.example',
    onRenewal: (provider, outcome) => renewals.push(`${provider} ${outcome}`),
  });
  return { channels, renewals };
}

const made = async () => ({
  id: 'new',
  resourceId: 'r',
  expiresAt: new Date(NOW.getTime() + 3 * 86_400_000),
});
const expiringSoon = new Date(NOW.getTime() + CHANNEL_RENEW_MARGIN_MS - 1);

describe('channel renewals, as the metrics see them', () => {
  it('reports a renewal of the same calendar’s channel, and its failure', async () => {
    const renewed = channelsWith(made);
    await renewed.channels.ensure('u1', settings, stateWith({ channelExpiresAt: expiringSoon }));
    expect(renewed.renewals).toEqual(['google renewed']);

    const refused = channelsWith(async () => {
      throw new Error('unreachable webhook');
    });
    await expect(
      refused.channels.ensure('u1', settings, stateWith({ channelExpiresAt: expiringSoon })),
    ).rejects.toThrow('unreachable webhook');
    expect(refused.renewals).toEqual(['google failed']);
  });

  it('reports no renewal for a first channel, another calendar’s, or a channel still fresh', async () => {
    const { channels, renewals } = channelsWith(made);
    await channels.ensure('u1', settings, null);
    await channels.ensure('u1', settings, stateWith({ calendarId: 'home', channelExpiresAt: expiringSoon }));
    await channels.ensure(
      'u1',
      settings,
      stateWith({ channelExpiresAt: new Date(NOW.getTime() + 86_400_000) }),
    );
    expect(renewals).toEqual([]);
  });
});

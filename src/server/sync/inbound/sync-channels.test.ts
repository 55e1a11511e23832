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

/**
 * The channel code with a calendar whose `watch` answers or fails (and `renewWatch`, when given, for a
 * calendar that extends channels in place); returns the renewals it reported, the calls it made and
 * what it saved.
 */
function channelsWith(watch: () => Promise<unknown>, renewWatch?: CalendarTarget['renewWatch']) {
  const renewals: string[] = [];
  const calls: string[] = [];
  const saved: Partial<SyncState>[] = [];
  const calendar = {
    watch: async () => {
      calls.push('watch');
      return watch();
    },
    stopWatch: async () => {
      calls.push('stop');
    },
    ...(renewWatch
      ? {
          renewWatch: async (...args: Parameters<NonNullable<CalendarTarget['renewWatch']>>) => {
            calls.push(`renew ${args[1].id}`);
            return renewWatch(...args);
          },
        }
      : {}),
  } as unknown as CalendarTarget;
  const channels = createSyncChannels({
    states: {
      save: async (_userId: string, patch: Partial<SyncState>) => {
        saved.push(patch);
      },
    } as unknown as SyncStateRepository,
    calendars: { google: calendar, microsoft: null },
    withToken: (_userId, _kind, call) => call('token'),
    clock: () => NOW,
    log: pino({ level: 'silent' }),
    publicOrigin: () => 'https://app.example',
    onRenewal: (provider, outcome) => renewals.push(`${provider} ${outcome}`),
  });
  return { channels, renewals, calls, saved };
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

describe('renewing a channel in place (Graph)', () => {
  const extended = new Date(NOW.getTime() + 3 * 86_400_000);
  const renewing = async () => ({ id: 'old', resourceId: null, expiresAt: extended });

  it('extends the same calendar’s channel, keeping its id and secret, instead of opening another', async () => {
    const { channels, renewals, calls, saved } = channelsWith(made, renewing);
    await channels.ensure('u1', settings, stateWith({ channelExpiresAt: expiringSoon }));
    expect(calls).toEqual(['renew old']);
    // Delivering from now on: the quiet-channel check counts from here.
    expect(saved).toEqual([{ channelExpiresAt: extended, pushHeardAt: NOW }]);
    expect(renewals).toEqual(['google renewed']);
  });

  it('answers a lifecycle notice the same way (its channel marked due)', async () => {
    const { channels, calls } = channelsWith(made, renewing);
    await channels.ensure('u1', settings, stateWith({ channelExpiresAt: new Date(0) }));
    expect(calls).toEqual(['renew old']);
  });

  it('opens a new channel, and stops the old, when the provider no longer has it', async () => {
    const { channels, renewals, calls, saved } = channelsWith(made, async () => null);
    await channels.ensure('u1', settings, stateWith({ channelExpiresAt: expiringSoon }));
    expect(calls).toEqual(['renew old', 'watch', 'stop']);
    expect(saved[0]).toMatchObject({ channelId: 'new' });
    expect(renewals).toEqual(['google renewed']);
  });

  it('reports a refused renewal as failed and leaves the channel due for the next run', async () => {
    const { channels, renewals, calls, saved } = channelsWith(made, async () => {
      throw new Error('forbidden');
    });
    await expect(
      channels.ensure('u1', settings, stateWith({ channelExpiresAt: expiringSoon })),
    ).rejects.toThrow('forbidden');
    expect(calls).toEqual(['renew old']);
    expect(saved).toEqual([]);
    expect(renewals).toEqual(['google failed']);
  });

  it('never renews another calendar’s channel: a new one is opened for the calendar chosen', async () => {
    const { channels, calls } = channelsWith(made, renewing);
    await channels.ensure('u1', settings, stateWith({ calendarId: 'home', channelExpiresAt: expiringSoon }));
    expect(calls).toEqual(['watch', 'stop']);
  });
});

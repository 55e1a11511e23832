import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import { SYNC_PATHS } from '#shared/api/sync.schema.ts';
import type { CalendarTarget } from '../calendar-target.port.ts';
import type { SyncStateRepository } from '../store/sync-state.repository.ts';
import type { SyncSettings } from '../sync-settings.ts';
import type { SyncState } from '../sync-state.ts';
import type { WithToken } from '../with-token.ts';

/** Channels live this long (Google allows up to a week for events; Graph about three days). */
export const CHANNEL_TTL_SECONDS = 3 * 24 * 3600;
/** Renewed when less than this is left, so a notification is never missed for want of a channel. */
export const CHANNEL_RENEW_MARGIN_MS = 12 * 3600_000;

export type SyncChannels = {
  /**
   * A live channel on the chosen calendar: created, or renewed before it expires. True when it opened
   * or renewed one (the state's channel fields changed), false when the channel was live or push is off.
   */
  ensure(userId: string, settings: SyncSettings, state: SyncState | null): Promise<boolean>;
  /** Stops the user's channel at the provider and forgets it (sync off, integration removed). */
  stop(userId: string): Promise<void>;
  /** For each notification, its user when its channel id and secret are ours; null otherwise. */
  verify(pushes: readonly { channelId: string; secret: string }[]): Promise<(string | null)[]>;
};

const sha256 = (value: string) => createHash('sha256').update(value).digest();

export type SyncChannelDeps = {
  states: SyncStateRepository;
  calendars: Record<'google' | 'microsoft', CalendarTarget | null>;
  withToken: WithToken;
  clock: Clock;
  log: Logger;
  /** The app's public origin, where providers can reach the webhooks; null: no push, reconcile only. */
  publicOrigin: () => string | null;
  /** Told how each renewal of a live channel went (the metrics count them). */
  onRenewal?: (provider: 'google' | 'microsoft', outcome: 'renewed' | 'failed') => void;
};

export function createSyncChannels(deps: SyncChannelDeps): SyncChannels {
  const address = (provider: 'google' | 'microsoft', origin: string) =>
    `${origin}${provider === 'google' ? SYNC_PATHS.googleWebhook : SYNC_PATHS.microsoftWebhook}`;

  async function stopChannel(userId: string, state: SyncState): Promise<void> {
    const calendar = state.calendarProvider ? deps.calendars[state.calendarProvider] : null;
    if (!state.channelId || !calendar) return;
    const channel = { id: state.channelId, resourceId: state.channelResourceId, expiresAt: new Date(0) };
    try {
      await deps.withToken(userId, 'calendar', (token) => calendar.stopWatch(token, channel));
    } catch (error) {
      // A channel we cannot stop expires by itself; its notifications no longer verify.
      deps.log.warn({ userId, err: error }, 'could not stop a calendar channel');
    }
  }

  return {
    async ensure(userId, settings, state) {
      const origin = deps.publicOrigin();
      const calendar = deps.calendars[settings.calendarProvider];
      if (!origin || !calendar) return false;
      const now = deps.clock();
      const live =
        state?.channelId &&
        state.calendarId === settings.calendarId &&
        state.calendarProvider === settings.calendarProvider &&
        state.channelExpiresAt &&
        state.channelExpiresAt.getTime() - CHANNEL_RENEW_MARGIN_MS > now.getTime();
      if (live) return false;
      // The same calendar's channel running out is a renewal; a first or another calendar's is not.
      const renewal =
        !!state?.channelId &&
        state.calendarId === settings.calendarId &&
        state.calendarProvider === settings.calendarProvider;
      if (renewal && state && (await renewInPlace(deps, userId, calendar, state, settings.calendarProvider)))
        return true;
      const secret = randomBytes(24).toString('base64url');
      const channel = await deps
        .withToken(userId, 'calendar', (token) =>
          calendar.watch(token, settings.calendarId, {
            id: randomUUID(),
            address: address(settings.calendarProvider, origin),
            secret,
            ttlSeconds: CHANNEL_TTL_SECONDS,
          }),
        )
        .catch((error: unknown) => {
          if (renewal) deps.onRenewal?.(settings.calendarProvider, 'failed');
          throw error;
        });
      if (renewal) deps.onRenewal?.(settings.calendarProvider, 'renewed');
      await deps.states.save(
        userId,
        {
          channelId: channel.id,
          channelResourceId: channel.resourceId,
          channelSecretHash: sha256(secret).toString('base64url'),
          channelExpiresAt: channel.expiresAt,
          // Delivering from now on: a change after this that no notification tells of is a quiet channel.
          pushHeardAt: now,
          // The channel watches this calendar; the read position follows in the same run.
          calendarProvider: settings.calendarProvider,
        },
        now,
      );
      if (state?.channelId) await stopChannel(userId, state);
      return true;
    },

    async stop(userId) {
      const state = await deps.states.find(userId);
      if (!state?.channelId) return;
      await stopChannel(userId, state);
      await deps.states.save(
        userId,
        { channelId: null, channelResourceId: null, channelSecretHash: null, channelExpiresAt: null },
        deps.clock(),
      );
    },

    verify: createChannelVerifier(deps.states).verify,
  };
}

/**
 * Extends the channel where the provider can (Graph), which also answers a `reauthorizationRequired`:
 * true when done. False when it cannot, or no longer has the channel, so a new one is opened.
 */
async function renewInPlace(
  deps: SyncChannelDeps,
  userId: string,
  calendar: CalendarTarget,
  state: SyncState,
  provider: 'google' | 'microsoft',
): Promise<boolean> {
  const renewWatch = calendar.renewWatch?.bind(calendar);
  if (!renewWatch || !state.channelId) return false;
  const current = {
    id: state.channelId,
    resourceId: state.channelResourceId,
    expiresAt: state.channelExpiresAt ?? new Date(0),
  };
  const renewed = await deps
    .withToken(userId, 'calendar', (token) => renewWatch(token, current, CHANNEL_TTL_SECONDS))
    .catch((error: unknown) => {
      deps.onRenewal?.(provider, 'failed');
      throw error;
    });
  if (!renewed) return false;
  deps.onRenewal?.(provider, 'renewed');
  const now = deps.clock();
  await deps.states.save(userId, { channelExpiresAt: renewed.expiresAt, pushHeardAt: now }, now);
  return true;
}

/** Checks calendar notifications against the stored channels; needs no provider, only the states. */
export function createChannelVerifier(
  states: Pick<SyncStateRepository, 'byChannels'>,
): Pick<SyncChannels, 'verify'> {
  return {
    async verify(pushes) {
      const found = await states.byChannels([...new Set(pushes.map((push) => push.channelId))]);
      const byChannel = new Map(found.map((state) => [state.channelId, state]));
      return pushes.map(({ channelId, secret }) => {
        const state = byChannel.get(channelId);
        if (!state?.channelSecretHash) return null;
        const expected = Buffer.from(state.channelSecretHash, 'base64url');
        const actual = sha256(secret);
        return expected.length === actual.length && timingSafeEqual(expected, actual) ? state.userId : null;
      });
    },
  };
}

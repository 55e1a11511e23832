import type { SyncChannels } from '#server/sync/inbound/sync-channels.ts';

/**
 * The push channels faked for the engine's unit tests: what the engine asked for, and a fault for
 * `ensure`.
 */
export function fakeChannels() {
  const ensured: string[] = [];
  /** The users whose channel the engine had opened again though it was not running out (quiet). */
  const reopened: string[] = [];
  const stopped: string[] = [];
  let ensureError: unknown = null;
  const channels: SyncChannels = {
    async ensure(userId, _settings, state) {
      ensured.push(userId);
      if (ensureError) throw ensureError;
      if (state?.channelExpiresAt?.getTime() === 0) reopened.push(userId);
      return false;
    },
    async stop(userId) {
      stopped.push(userId);
    },
    async verify(pushes) {
      return pushes.map(() => null);
    },
  };
  return {
    channels,
    ensured,
    reopened,
    stopped,
    failEnsure(error: unknown) {
      ensureError = error;
    },
  };
}

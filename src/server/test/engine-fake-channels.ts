import type { SyncChannels } from '#server/sync/inbound/sync-channels.ts';

/**
 * The push channels faked for the engine's unit tests: what the engine asked for, and a fault for
 * `ensure`.
 */
export function fakeChannels() {
  const ensured: string[] = [];
  const stopped: string[] = [];
  let ensureError: unknown = null;
  const channels: SyncChannels = {
    async ensure(userId) {
      ensured.push(userId);
      if (ensureError) throw ensureError;
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
    stopped,
    failEnsure(error: unknown) {
      ensureError = error;
    },
  };
}

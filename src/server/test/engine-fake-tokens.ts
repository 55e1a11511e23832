import { ReconnectRequiredError } from '#server/domain/integrations/token-manager.ts';
import type { WithToken } from '#server/sync/with-token.ts';

/**
 * Access tokens faked for the engine's unit tests: every call gets one, unless the user must connect
 * that account again.
 */
export function fakeTokens() {
  const revoked = new Set<'todoist' | 'calendar'>();
  const withToken: WithToken = async (_userId, kind, call) => {
    if (revoked.has(kind)) throw new ReconnectRequiredError(kind);
    return call(`${kind}-token`);
  };
  return {
    withToken,
    revoke(kind: 'todoist' | 'calendar') {
      revoked.add(kind);
    },
  };
}

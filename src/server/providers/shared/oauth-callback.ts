import { createHash, timingSafeEqual } from 'node:crypto';
import {
  ConnectCancelledError,
  type ConnectFlow,
  ProviderRequestError,
} from '#server/domain/integrations/integration-providers.port.ts';

/**
 * Checks an OAuth callback against the flow that started it: a refusal, a state that is not ours,
 * or a missing code end the connect. Returns the authorization code.
 */
export function checkCallback(callbackUrl: URL, flow: ConnectFlow, provider: string): string {
  const params = callbackUrl.searchParams;
  const error = params.get('error');
  if (error === 'access_denied') throw new ConnectCancelledError(`${provider} consent was refused`);
  if (error) throw new ProviderRequestError(`${provider} consent failed [${error.slice(0, 60)}]`);
  const state = Buffer.from(params.get('state') ?? '');
  const expected = Buffer.from(flow.state);
  if (state.length !== expected.length || !timingSafeEqual(state, expected)) {
    throw new ProviderRequestError(`${provider} callback state does not match the flow`);
  }
  const code = params.get('code');
  if (!code) throw new ProviderRequestError(`${provider} callback without a code`);
  return code;
}

/** S256 PKCE challenge of a verifier. */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

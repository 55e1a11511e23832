import * as oidc from 'openid-client';
import type { GoogleIdentityConfig } from '#server/config.ts';
import {
  type IdentityProvider,
  IdentityProviderError,
  SignInCancelledError,
} from '#server/domain/auth/identity-provider.port.ts';
import { googleClaimsSchema } from './google-identity.schemas.ts';

/** Google sign-in over OpenID Connect (authorization code + PKCE + nonce) with openid-client. */
export function createGoogleIdentityProvider(config: GoogleIdentityConfig): IdentityProvider {
  let discovered: Promise<oidc.Configuration> | undefined;
  const configuration = () => {
    discovered ??= oidc
      .discovery(
        new URL(config.issuer),
        config.clientId,
        config.clientSecret,
        undefined,
        config.issuer.startsWith('http://') ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        discovered = undefined; // try discovery again on the next sign-in
        throw new IdentityProviderError('Google discovery failed', { cause: error });
      });
    return discovered;
  };

  return {
    name: 'google',

    async authorizationUrl(flow, redirectUri) {
      return oidc.buildAuthorizationUrl(await configuration(), {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
        prompt: 'select_account',
      });
    },

    async exchange(callbackUrl, flow) {
      if (callbackUrl.searchParams.get('error') === 'access_denied') {
        throw new SignInCancelledError('Google sign-in was cancelled');
      }
      try {
        // openid-client sends the callback URL without its query as redirect_uri, so callbackUrl must be
        // built from APP_URL (as the auth routes do), not from what a proxy forwarded.
        const tokens = await oidc.authorizationCodeGrant(await configuration(), callbackUrl, {
          pkceCodeVerifier: flow.codeVerifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
        });
        const claims = googleClaimsSchema.parse(tokens.claims());
        return {
          provider: 'google',
          subject: claims.sub,
          email: claims.email,
          name: claims.name ?? '',
          firstName: claims.given_name,
        };
      } catch (error) {
        throw new IdentityProviderError('Google code exchange failed', { cause: error });
      }
    },
  };
}

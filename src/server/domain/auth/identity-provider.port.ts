import { NamedError } from '../shared/domain-errors.ts';
import type { IdentityProviderName } from '../users/user.repository.ts';
import type { VerifiedIdentity } from '../users/user.service.ts';

/** The one-time values of a sign-in attempt, kept in a signed cookie between redirect and callback. */
export type SignInFlow = {
  provider: IdentityProviderName;
  state: string;
  nonce: string;
  codeVerifier: string;
};

/** A sign-in provider (Google via OpenID Connect, Facebook Login); real or emulated, by config. */
export type IdentityProvider = {
  name: IdentityProviderName;
  authorizationUrl(flow: SignInFlow, redirectUri: string): Promise<URL>;
  /** Verifies the callback against the flow and returns who signed in. */
  exchange(callbackUrl: URL, flow: SignInFlow, redirectUri: string): Promise<VerifiedIdentity>;
};

export class SignInCancelledError extends NamedError {}

export class IdentityProviderError extends NamedError {}

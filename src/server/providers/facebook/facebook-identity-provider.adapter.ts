import { createHash, createHmac } from 'node:crypto';
import type { z } from 'zod';
import type { FacebookIdentityConfig } from '#server/config.ts';
import {
  type IdentityProvider,
  IdentityProviderError,
  SignInCancelledError,
} from '#server/domain/auth/identity-provider.port.ts';
import {
  facebookErrorSchema,
  facebookProfileSchema,
  facebookTokenSchema,
} from './facebook-identity.schemas.ts';

const REQUEST_TIMEOUT_MS = 10_000;

/** Facebook Login: the manual code flow with state and PKCE, then `/me` for the profile. */
export function createFacebookIdentityProvider(config: FacebookIdentityConfig): IdentityProvider {
  const graph = (path: string) => new URL(`${config.graphUrl.replace(/\/$/, '')}/${path}`);

  return {
    name: 'facebook',

    async authorizationUrl(flow, redirectUri) {
      const url = new URL(config.dialogUrl);
      url.search = new URLSearchParams({
        client_id: config.appId,
        redirect_uri: redirectUri,
        state: flow.state,
        response_type: 'code',
        scope: 'public_profile,email',
        code_challenge: createHash('sha256').update(flow.codeVerifier).digest('base64url'),
        code_challenge_method: 'S256',
      }).toString();
      return url;
    },

    async exchange(callbackUrl, flow, redirectUri) {
      const params = callbackUrl.searchParams;
      if (params.get('error')) throw new SignInCancelledError('Facebook sign-in was cancelled');
      if (params.get('state') !== flow.state) throw new IdentityProviderError('Facebook state mismatch');
      const code = params.get('code');
      if (!code) throw new IdentityProviderError('Facebook callback without a code');

      const tokenUrl = graph('oauth/access_token');
      tokenUrl.search = new URLSearchParams({
        client_id: config.appId,
        client_secret: config.appSecret,
        redirect_uri: redirectUri,
        code,
        code_verifier: flow.codeVerifier,
      }).toString();
      const token = await getJson(tokenUrl, facebookTokenSchema);

      const meUrl = graph('me');
      meUrl.search = new URLSearchParams({
        fields: 'id,name,first_name,email',
        appsecret_proof: createHmac('sha256', config.appSecret).update(token.access_token).digest('hex'),
      }).toString();
      const profile = await getJson(meUrl, facebookProfileSchema, token.access_token);
      return {
        provider: 'facebook',
        subject: profile.id,
        email: profile.email ?? '',
        name: profile.name ?? '',
        firstName: profile.first_name,
      };
    },
  };
}

async function getJson<T extends z.ZodType>(url: URL, schema: T, bearer?: string): Promise<z.infer<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new IdentityProviderError(`Facebook request to ${url.pathname} failed`, { cause: error });
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const parsed = facebookErrorSchema.safeParse(body);
    const detail = parsed.success ? parsed.data.error.message : `status ${response.status}`;
    throw new IdentityProviderError(`Facebook ${url.pathname} rejected the request: ${detail}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new IdentityProviderError(`Facebook ${url.pathname} answered an unexpected shape`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

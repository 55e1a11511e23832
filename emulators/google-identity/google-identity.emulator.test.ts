import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fillInAccountForm } from '../shared/testing/html-form.ts';
import { expectAccountForm } from '../shared/testing/sign-in-form.ts';
import { createGoogleIdentityEmulator } from './google-identity.emulator.ts';

const CLIENT = { clientId: 'test-google-client', clientSecret: 'test-google-secret' };
const REDIRECT_URI = 'http://localhost:3000/auth/google/callback';

let app: FastifyInstance;
let issuer: string;
let config: oidc.Configuration;

beforeAll(async () => {
  app = await createGoogleIdentityEmulator({ clients: [CLIENT], getOrigin: () => issuer });
  await app.listen({ host: 'localhost', port: 0 });
  issuer = `http://localhost:${(app.server.address() as AddressInfo).port}`;
  config = await oidc.discovery(new URL(issuer), CLIENT.clientId, CLIENT.clientSecret, undefined, {
    execute: [oidc.allowInsecureRequests],
  });
});

afterAll(async () => {
  await app.close();
});

beforeEach(async () => {
  await fetch(`${issuer}/_emulator/reset`, { method: 'POST' });
});

type SignInOptions = {
  email?: string;
  name?: string;
  decision?: 'continue' | 'cancel';
  params?: Record<string, string>;
  configuration?: oidc.Configuration;
};

/** Drives the browser part: authorization URL, sign-in page, form POST; returns the redirect. */
async function signIn(options: SignInOptions = {}) {
  const configuration = options.configuration ?? config;
  const pkceCodeVerifier = oidc.randomPKCECodeVerifier();
  const expectedState = oidc.randomState();
  const expectedNonce = oidc.randomNonce();
  const authorizationUrl = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid email profile',
    state: expectedState,
    nonce: expectedNonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: 'S256',
    prompt: 'select_account',
    ...options.params,
  });
  const { page, html, response } = await fillInAccountForm(authorizationUrl, options, {
    email: 'ada.lovelace@example.com',
    name: 'Ada Lovelace',
  });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location') ?? '');
  return { page, html, location, checks: { pkceCodeVerifier, expectedState, expectedNonce } };
}

async function signInAndExchange(options: SignInOptions = {}) {
  const { location, checks } = await signIn(options);
  return oidc.authorizationCodeGrant(options.configuration ?? config, location, checks);
}

describe('discovery and keys', () => {
  it('publishes the discovery document with the emulator origin as issuer', async () => {
    const response = await fetch(`${issuer}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/o/oauth2/v2/auth`,
      token_endpoint: `${issuer}/token`,
      userinfo_endpoint: `${issuer}/v1/userinfo`,
      revocation_endpoint: `${issuer}/revoke`,
      jwks_uri: `${issuer}/oauth2/v3/certs`,
      id_token_signing_alg_values_supported: ['RS256'],
      code_challenge_methods_supported: ['plain', 'S256'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      scopes_supported: ['openid', 'email', 'profile'],
    });
  });

  it('serves an RS256 JWKS with a kid', async () => {
    const jwks = (await (await fetch(`${issuer}/oauth2/v3/certs`)).json()) as {
      keys: Record<string, string>[];
    };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String) });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });
});

describe('sign-in page', () => {
  it('renders the account form with labelled, pre-filled inputs and the buttons', async () => {
    const { page, html } = await signIn();
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(html).toContain('<title>Sign in with Google (sandbox)</title>');
    expectAccountForm(html, { email: 'ada.lovelace@example.com', name: 'Ada Lovelace' });
  });

  it('escapes reflected values', async () => {
    const url = new URL(`${issuer}/o/oauth2/v2/auth`);
    url.search = new URLSearchParams({
      client_id: CLIENT.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid email',
      state: '"><script>alert(1)</script>',
      login_hint: 'x"onfocus="alert(1)@example.com',
    }).toString();
    const html = await (await fetch(url)).text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).toContain('value="x&quot;onfocus=&quot;alert(1)@example.com"');
  });

  it.each([
    [{ client_id: 'unknown-client' }, 'invalid_client'],
    [{ redirect_uri: '' }, 'Missing required parameter: redirect_uri'],
    [{ redirect_uri: 'javascript:alert(1)' }, 'Invalid parameter value for redirect_uri'],
    [{ response_type: 'token' }, 'unsupported_response_type'],
    [{ scope: 'email profile' }, 'invalid_scope'],
  ])('rejects a bad authorization request %o with an HTML error page', async (override, expected) => {
    const url = new URL(`${issuer}/o/oauth2/v2/auth`);
    const params = new URLSearchParams({
      client_id: CLIENT.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid email profile',
      ...override,
    });
    url.search = params.toString();
    const response = await fetch(url);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(await response.text()).toContain(expected);
  });
});

describe('authorization code flow with openid-client', () => {
  it('signs in and returns verified ID token claims', async () => {
    const { location, checks } = await signIn({
      email: 'Charles.Babbage@example.com',
      name: 'Charles Babbage',
    });
    expect(location.origin + location.pathname).toBe(REDIRECT_URI);
    expect(location.searchParams.get('code')).toMatch(/^4\/0/);
    expect(location.searchParams.get('state')).toBe(checks.expectedState);

    const tokens = await oidc.authorizationCodeGrant(config, location, checks);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(3599);
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.scope?.split(' ')).toEqual([
      'openid',
      'https://www.googleapis.com/auth/userinfo.email',
      'https://www.googleapis.com/auth/userinfo.profile',
    ]);
    const claims = tokens.claims();
    expect(claims).toMatchObject({
      iss: issuer,
      aud: CLIENT.clientId,
      azp: CLIENT.clientId,
      email: 'charles.babbage@example.com',
      email_verified: true,
      name: 'Charles Babbage',
      given_name: 'Charles',
      family_name: 'Babbage',
    });
    expect(claims?.sub).toMatch(/^\d{21}$/);
    expect((claims?.exp ?? 0) - (claims?.iat ?? 0)).toBe(3600);

    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims?.sub ?? '');
    expect(userinfo).toEqual({
      sub: claims?.sub,
      name: 'Charles Babbage',
      given_name: 'Charles',
      family_name: 'Babbage',
      email: 'charles.babbage@example.com',
      email_verified: true,
    });
  });

  it('gives the same e-mail the same sub and another e-mail another sub', async () => {
    const first = (await signInAndExchange({ email: 'ada@example.com' })).claims()?.sub;
    const again = (await signInAndExchange({ email: 'ADA@example.com', name: 'Countess' })).claims()?.sub;
    const other = (await signInAndExchange({ email: 'grace@example.com' })).claims()?.sub;
    expect(again).toBe(first);
    expect(other).not.toBe(first);
  });

  it('authenticates the client with client_secret_basic too', async () => {
    const basicConfig = await oidc.discovery(
      new URL(issuer),
      CLIENT.clientId,
      undefined,
      oidc.ClientSecretBasic(CLIENT.clientSecret),
      { execute: [oidc.allowInsecureRequests] },
    );
    const tokens = await signInAndExchange({ configuration: basicConfig });
    expect(tokens.claims()?.email).toBe('ada.lovelace@example.com');
  });

  it('rejects a wrong PKCE verifier with invalid_grant', async () => {
    const { location, checks } = await signIn();
    const wrong = { ...checks, pkceCodeVerifier: oidc.randomPKCECodeVerifier() };
    await expect(oidc.authorizationCodeGrant(config, location, wrong)).rejects.toMatchObject({
      error: 'invalid_grant',
      status: 400,
      cause: { error_description: 'Invalid code verifier.' },
    });
  });

  it('accepts a code only once', async () => {
    const { location, checks } = await signIn();
    await oidc.authorizationCodeGrant(config, location, checks);
    await expect(oidc.authorizationCodeGrant(config, location, checks)).rejects.toMatchObject({
      error: 'invalid_grant',
      status: 400,
    });
  });

  it('rejects a redirect_uri that differs from the authorization request', async () => {
    const { location, checks } = await signIn();
    // openid-client sends the callback URL (without its query) as redirect_uri.
    const elsewhere = new URL(location);
    elsewhere.pathname = '/auth/elsewhere';
    await expect(oidc.authorizationCodeGrant(config, elsewhere, checks)).rejects.toMatchObject({
      error: 'redirect_uri_mismatch',
      status: 400,
    });
  });

  it('redirects with access_denied when the user cancels', async () => {
    const { location, checks } = await signIn({ decision: 'cancel' });
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe(checks.expectedState);
    expect(location.searchParams.has('code')).toBe(false);
    await expect(oidc.authorizationCodeGrant(config, location, checks)).rejects.toMatchObject({
      error: 'access_denied',
    });
  });
});

describe('token endpoint errors', () => {
  const postToken = (body: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(body),
    });

  it('answers 401 invalid_client for a wrong secret or an unknown client', async () => {
    const wrongSecret = await postToken({
      grant_type: 'authorization_code',
      code: 'x',
      redirect_uri: REDIRECT_URI,
      client_id: CLIENT.clientId,
      client_secret: 'nope',
    });
    expect(wrongSecret.status).toBe(401);
    expect(await wrongSecret.json()).toMatchObject({ error: 'invalid_client' });

    const basic = Buffer.from('someone-else:secret').toString('base64');
    const unknown = await postToken(
      { grant_type: 'refresh_token', refresh_token: 'x' },
      { authorization: `Basic ${basic}` },
    );
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({
      error: 'invalid_client',
      error_description: 'The OAuth client was not found.',
    });
  });

  it('answers 400 unsupported_grant_type and invalid_grant for an unknown code', async () => {
    const unsupported = await postToken({ grant_type: 'password', ...toPost(CLIENT) });
    expect(unsupported.status).toBe(400);
    expect(await unsupported.json()).toMatchObject({ error: 'unsupported_grant_type' });

    const badCode = await postToken({
      grant_type: 'authorization_code',
      code: '4/0unknown',
      redirect_uri: REDIRECT_URI,
      ...toPost(CLIENT),
    });
    expect(badCode.status).toBe(400);
    expect(await badCode.json()).toEqual({ error: 'invalid_grant', error_description: 'Bad Request' });
  });
});

describe('refresh and revocation', () => {
  it('issues a refresh token for access_type=offline and honours the refresh_token grant', async () => {
    const offline = { access_type: 'offline' };
    const first = await signInAndExchange({ params: offline });
    expect(first.refresh_token).toMatch(/^1\/\//);

    const refreshed = await oidc.refreshTokenGrant(config, first.refresh_token ?? '');
    expect(refreshed.access_token).not.toBe(first.access_token);
    expect(refreshed.refresh_token).toBeUndefined();
    expect(refreshed.expires_in).toBe(3599);
    expect(refreshed.claims()?.sub).toBe(first.claims()?.sub);
    const userinfo = await oidc.fetchUserInfo(config, refreshed.access_token, first.claims()?.sub ?? '');
    expect(userinfo.email).toBe('ada.lovelace@example.com');

    // Like Google: only the first offline grant gets one, unless the user is asked to consent again.
    expect((await signInAndExchange({ params: offline })).refresh_token).toBeUndefined();
    expect(
      (await signInAndExchange({ params: { ...offline, prompt: 'consent' } })).refresh_token,
    ).toBeTruthy();
  });

  it('makes revoked tokens stop working', async () => {
    const tokens = await signInAndExchange({ params: { access_type: 'offline' } });
    const sub = tokens.claims()?.sub ?? '';
    await oidc.fetchUserInfo(config, tokens.access_token, sub);

    await oidc.tokenRevocation(config, tokens.access_token);
    const userinfo = await fetch(`${issuer}/v1/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(userinfo.status).toBe(401);
    expect(userinfo.headers.get('www-authenticate')).toContain('invalid_token');
    await expect(oidc.fetchUserInfo(config, tokens.access_token, sub)).rejects.toThrow();
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token ?? '')).rejects.toMatchObject({
      error: 'invalid_grant',
    });

    const again = await fetch(`${issuer}/revoke?token=${encodeURIComponent(tokens.access_token)}`, {
      method: 'POST',
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_token' });
  });

  it('revokes by query parameter as Google documents it', async () => {
    const tokens = await signInAndExchange();
    const response = await fetch(`${issuer}/revoke?token=${encodeURIComponent(tokens.access_token)}`, {
      method: 'POST',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
  });

  it('answers 401 on userinfo without a token', async () => {
    expect((await fetch(`${issuer}/v1/userinfo`)).status).toBe(401);
  });
});

describe('emulator state', () => {
  it('shows users, live codes, tokens and request counts, and resets', async () => {
    await signIn({ email: 'grace@example.com', name: 'Grace Hopper' });
    const state = await (await fetch(`${issuer}/_emulator/state`)).json();
    expect(state).toMatchObject({
      issuer,
      users: [{ email: 'grace@example.com', name: 'Grace Hopper', sub: expect.stringMatching(/^\d{21}$/) }],
      liveCodes: 1,
      grants: [],
      requests: { 'GET /o/oauth2/v2/auth': 1, 'POST /o/oauth2/v2/auth': 1 },
    });

    await fetch(`${issuer}/_emulator/reset`, { method: 'POST' });
    const reset = await (await fetch(`${issuer}/_emulator/state`)).json();
    expect(reset).toMatchObject({
      users: [],
      liveCodes: 0,
      grants: [],
      requests: { 'GET /_emulator/state': 1 },
    });
  });
});

function toPost(client: { clientId: string; clientSecret: string }) {
  return { client_id: client.clientId, client_secret: client.clientSecret };
}

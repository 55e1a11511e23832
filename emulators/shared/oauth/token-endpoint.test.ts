import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthorizationCodes, type CodeRequest } from './authorization-codes.ts';
import { GrantStore } from './grant-store.ts';
import { OAuthError, type TokenFailure } from './oauth-error.ts';
import { registerTokenEndpoint } from './token-endpoint.ts';

// RFC 7636 appendix B.
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const REDIRECT = 'https://app.example/cb';
const CONFIDENTIAL = { clientId: 'web', clientSecret: 's3cret' };
const PUBLIC = { clientId: 'spa' };

type Code = CodeRequest & { scopes: string[]; user: string };
type Data = { clientId: string; user: string; scopes: string[] };

/** Names the failure in the error code, so each test sees which check refused it. */
const word = (failure: TokenFailure) =>
  new OAuthError(failure.kind.startsWith('client') ? 401 : 400, failure.kind, JSON.stringify(failure));

type Options = { rejectClientIdConflict?: boolean; rejectUnrequestedVerifier?: boolean };

async function startEndpoint(options: Options = {}) {
  const app = Fastify();
  await app.register(formbody);
  let count = 0;
  const codes = new AuthorizationCodes<Code>(() => `code-${++count}`);
  const grants = new GrantStore<Data>({
    accessTokenLifetimeSeconds: 60,
    newAccessToken: () => `at-${++count}`,
    newRefreshToken: () => `rt-${++count}`,
  });
  registerTokenEndpoint(app, {
    path: '/:realm/token',
    clients: new Map([
      [CONFIDENTIAL.clientId, CONFIDENTIAL],
      [PUBLIC.clientId, PUBLIC],
    ]),
    codes,
    grants,
    word,
    errorBody: (error) => ({ error: error.error, detail: JSON.parse(error.message) }),
    cacheHeaders: { 'cache-control': 'no-store', pragma: 'no-cache' },
    rejectClientIdConflict: options.rejectClientIdConflict ?? false,
    rejectUnrequestedVerifier: options.rejectUnrequestedVerifier ?? false,
    checkRequest: (request) => {
      if ((request.params as { realm: string }).realm !== 'ok') throw new OAuthError(404, 'no_realm', '{}');
    },
    onCode: (code, client) => {
      const grant = grants.createGrant({ clientId: client.clientId, user: code.user, scopes: code.scopes });
      return { access_token: grants.issueAccessToken(grant), refresh_token: grants.issueRefreshToken(grant) };
    },
    onRefresh: (grant, _client, params) => ({
      access_token: grants.issueAccessToken(grant),
      user: grant.user,
      asked: params.scope ?? null,
    }),
  });
  await app.ready();
  return { app, codes, grants };
}

describe('registerTokenEndpoint', () => {
  let app: FastifyInstance;
  let codes: AuthorizationCodes<Code>;
  let grants: GrantStore<Data>;
  const issue = (extra: Partial<Code> = {}) =>
    codes.issue({
      clientId: CONFIDENTIAL.clientId,
      redirectUri: REDIRECT,
      scopes: ['read'],
      user: 'ada',
      ...extra,
    });
  const post = (form: Record<string, string>, headers: Record<string, string> = {}, realm = 'ok') =>
    app.inject({
      method: 'POST',
      url: `/${realm}/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams(form).toString(),
    });
  const exchange = (code: string, extra: Record<string, string> = {}) =>
    post({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: CONFIDENTIAL.clientId,
      client_secret: CONFIDENTIAL.clientSecret,
      ...extra,
    });

  beforeEach(async () => {
    ({ app, codes, grants } = await startEndpoint());
  });
  afterEach(async () => {
    vi.useRealTimers();
    await app.close();
  });

  it('exchanges a code once for tokens of a new grant, with the cache headers', async () => {
    const response = await exchange(issue());
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.pragma).toBe('no-cache');
    const body = response.json();
    const lookup = grants.accessToken(body.access_token);
    expect(lookup.status === 'valid' && lookup.grant).toMatchObject({
      clientId: 'web',
      user: 'ada',
      scopes: ['read'],
    });
  });

  it('refuses a code used twice', async () => {
    const code = issue();
    expect((await exchange(code)).statusCode).toBe(200);
    const again = await exchange(code);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('code_used');
    expect(again.headers['cache-control']).toBe('no-store');
  });

  it('refuses an expired code', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const code = issue();
    vi.setSystemTime(Date.now() + 10 * 60 * 1000);
    expect((await exchange(code)).json().error).toBe('code_expired');
  });

  it('refuses an unknown code and another client’s code, and uses the latter up', async () => {
    expect((await exchange('made-up')).json().error).toBe('code_invalid');
    const foreign = issue({ clientId: PUBLIC.clientId });
    expect((await exchange(foreign)).json().error).toBe('code_invalid');
    expect(codes.take(foreign)).toEqual({ status: 'used' });
  });

  it('refuses a redirect_uri other than the one the code was issued for', async () => {
    const response = await exchange(issue(), { redirect_uri: 'https://app.example/other' });
    expect(response.json()).toEqual({
      error: 'redirect_uri_mismatch',
      detail: { kind: 'redirect_uri_mismatch', given: 'https://app.example/other', expected: REDIRECT },
    });
  });

  it('asks for the parameters it needs, in order', async () => {
    expect((await post({})).json().detail).toEqual({ kind: 'missing_parameter', name: 'grant_type' });
    expect((await post({ grant_type: 'password' })).json().detail).toEqual({
      kind: 'unsupported_grant_type',
      grantType: 'password',
    });
    expect((await exchange('', {})).json().detail).toEqual({ kind: 'missing_parameter', name: 'code' });
    expect((await exchange(issue(), { redirect_uri: '' })).json().detail).toEqual({
      kind: 'missing_parameter',
      name: 'redirect_uri',
    });
  });

  it('runs the provider’s own check first', async () => {
    const response = await post({ grant_type: 'authorization_code' }, {}, 'elsewhere');
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('no_realm');
  });

  describe('PKCE', () => {
    const pkce = { challenge: CHALLENGE, method: 'S256' as const };

    it('accepts the verifier of the challenge', async () => {
      expect((await exchange(issue({ pkce }), { code_verifier: VERIFIER })).statusCode).toBe(200);
    });

    it('refuses a wrong verifier and a missing one', async () => {
      expect((await exchange(issue({ pkce }), { code_verifier: `${VERIFIER}x` })).json().error).toBe(
        'verifier_mismatch',
      );
      expect((await exchange(issue({ pkce }))).json().error).toBe('verifier_missing');
    });

    it('ignores a verifier nobody asked for, unless the provider refuses it (Google)', async () => {
      expect((await exchange(issue(), { code_verifier: VERIFIER })).statusCode).toBe(200);
      await app.close();
      ({ app, codes, grants } = await startEndpoint({ rejectUnrequestedVerifier: true }));
      expect((await exchange(issue(), { code_verifier: VERIFIER })).json().error).toBe(
        'verifier_unrequested',
      );
    });

    it('lets a public client in without a secret', async () => {
      const code = issue({ clientId: PUBLIC.clientId, pkce });
      const response = await post({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: PUBLIC.clientId,
        code_verifier: VERIFIER,
      });
      expect(response.statusCode).toBe(200);
    });
  });

  describe('client authentication', () => {
    const basic = (id: string, secret: string) => ({
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`,
    });
    const form = (code: string) => ({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });

    it('takes form-encoded Basic credentials', async () => {
      expect((await post(form(issue()), basic('web', 's3cret'))).statusCode).toBe(200);
    });

    it('refuses a wrong or missing secret and an unknown client', async () => {
      const wrong = await post(form(issue()), basic('web', 'guess'));
      expect([wrong.statusCode, wrong.json().error]).toEqual([401, 'client_secret_wrong']);
      expect((await post({ ...form(issue()), client_id: 'web' })).json().error).toBe('client_secret_missing');
      expect((await post(form(issue()), basic('nobody', 'x'))).json().detail).toEqual({
        kind: 'client_unknown',
        clientId: 'nobody',
      });
      expect((await post(form(issue()))).json().error).toBe('client_id_missing');
    });

    it('lets Basic win over a different body client_id, unless the provider refuses that (Google)', async () => {
      const mixed = () => ({ ...form(issue()), client_id: 'spa' });
      expect((await post(mixed(), basic('web', 's3cret'))).statusCode).toBe(200);
      await app.close();
      ({ app, codes, grants } = await startEndpoint({ rejectClientIdConflict: true }));
      expect((await post(mixed(), basic('web', 's3cret'))).json().error).toBe('client_id_conflict');
    });
  });

  describe('refresh_token grant', () => {
    const refresh = (token: string, extra: Record<string, string> = {}) =>
      post({ grant_type: 'refresh_token', refresh_token: token, ...CONFIDENTIAL_FORM, ...extra });
    const CONFIDENTIAL_FORM = { client_id: CONFIDENTIAL.clientId, client_secret: CONFIDENTIAL.clientSecret };

    it('answers with the grant behind the token, as often as asked', async () => {
      const { refresh_token: token } = (await exchange(issue())).json();
      const first = await refresh(token, { scope: 'read' });
      expect(first.json()).toMatchObject({ user: 'ada', asked: 'read' });
      expect((await refresh(token)).json()).toMatchObject({ user: 'ada', asked: null });
    });

    it('refuses a revoked, an unknown and another client’s refresh token', async () => {
      const { refresh_token: token } = (await exchange(issue())).json();
      grants.revokeRefreshTokens();
      expect((await refresh(token)).json().error).toBe('refresh_token_revoked');
      expect((await refresh('rt-unknown')).json().error).toBe('refresh_token_invalid');
      expect((await post({ grant_type: 'refresh_token', ...CONFIDENTIAL_FORM })).json().detail).toEqual({
        kind: 'missing_parameter',
        name: 'refresh_token',
      });
      const grant = grants.createGrant({ clientId: PUBLIC.clientId, user: 'grace', scopes: [] });
      const foreign = grants.issueRefreshToken(grant);
      expect((await refresh(foreign)).json().error).toBe('refresh_token_other_client');
    });
  });
});

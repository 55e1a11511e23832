import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fillInAccountForm, submitForm } from '../shared/testing/html-form.ts';
import { expectAccountForm } from '../shared/testing/sign-in-form.ts';
import { createFacebookEmulator } from './facebook.emulator.ts';

const APP = { appId: 'test-facebook-app', appSecret: 'test-facebook-secret' };
const REDIRECT_URI = 'http://localhost:3000/auth/facebook/callback';

let app: FastifyInstance;
let origin: string;
let graphUrl: string;

beforeAll(async () => {
  app = await createFacebookEmulator({ apps: [APP], getOrigin: () => origin });
  await app.listen({ host: 'localhost', port: 0 });
  origin = `http://localhost:${(app.server.address() as AddressInfo).port}`;
  graphUrl = `${origin}/v24.0`;
});

afterAll(async () => {
  await app.close();
});

beforeEach(async () => {
  await fetch(`${origin}/_emulator/reset`, { method: 'POST' });
});

function dialogUrl(params: Record<string, string> = {}, version = 'v24.0'): URL {
  const url = new URL(`${origin}/${version}/dialog/oauth`);
  url.search = new URLSearchParams({
    client_id: APP.appId,
    redirect_uri: REDIRECT_URI,
    state: 'state-123',
    response_type: 'code',
    scope: 'public_profile,email',
    ...params,
  }).toString();
  return url;
}

type LoginOptions = { email?: string; name?: string; decision?: string; params?: Record<string, string> };

/** Opens the dialog with PKCE S256, submits the form and returns the redirect. */
async function logIn(options: LoginOptions = {}) {
  const codeVerifier = randomBytes(32).toString('base64url');
  const url = dialogUrl({
    code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...options.params,
  });
  const { page, html, response } = await fillInAccountForm(url, options, {
    email: 'grace.hopper@example.com',
    name: 'Grace Hopper',
  });
  expect(response.status).toBe(302);
  const location = response.headers.get('location') ?? '';
  return { page, html, location, code: new URL(location).searchParams.get('code') ?? '', codeVerifier };
}

function exchangeCode(params: Record<string, string>) {
  const url = new URL(`${graphUrl}/oauth/access_token`);
  url.search = new URLSearchParams({
    client_id: APP.appId,
    client_secret: APP.appSecret,
    redirect_uri: REDIRECT_URI,
    ...params,
  }).toString();
  return fetch(url);
}

async function accessTokenFor(options: LoginOptions = {}): Promise<string> {
  const { code, codeVerifier } = await logIn(options);
  const response = await exchangeCode({ code, code_verifier: codeVerifier });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

function me(token: string, query: Record<string, string> = {}) {
  const url = new URL(`${graphUrl}/me`);
  url.search = new URLSearchParams(query).toString();
  return fetch(url, { headers: { authorization: `Bearer ${token}` } });
}

const proof = (token: string) => createHmac('sha256', APP.appSecret).update(token).digest('hex');

async function expectGraphError(response: Response, code: number, subcode?: number) {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { error: Record<string, unknown> };
  expect(body.error).toMatchObject({ type: expect.any(String), code, fbtrace_id: expect.any(String) });
  expect(body.error.message).toEqual(expect.any(String));
  if (subcode !== undefined) expect(body.error.error_subcode).toBe(subcode);
  return body.error;
}

describe('login dialog', () => {
  it('renders the login form with labelled, pre-filled inputs and the buttons', async () => {
    const { page, html } = await logIn();
    expect(page.status).toBe(200);
    expect(html).toContain('<title>Log in with Facebook (sandbox)</title>');
    expectAccountForm(html, { email: 'grace.hopper@example.com', name: 'Grace Hopper' });
    expect(html).toContain('action="/v24.0/dialog/oauth"');
  });

  it('redirects with code, state and the #_=_ fragment', async () => {
    const { location } = await logIn();
    expect(location.startsWith(`${REDIRECT_URI}?code=`)).toBe(true);
    expect(location.endsWith('&state=state-123#_=_')).toBe(true);
  });

  it('redirects with Facebook denial parameters on cancel', async () => {
    const { location } = await logIn({ decision: 'cancel' });
    expect(location).toBe(
      `${REDIRECT_URI}?error=access_denied&error_code=200&error_description=Permissions+error` +
        '&error_reason=user_denied&state=state-123#_=_',
    );
  });

  it('accepts other versions and no version at all', async () => {
    for (const path of ['/v25.0/dialog/oauth', '/v2.12/dialog/oauth', '/dialog/oauth']) {
      const url = new URL(path + dialogUrl().search, origin);
      expect((await fetch(url)).status, path).toBe(200);
    }
    expect((await fetch(new URL(`/latest/dialog/oauth${dialogUrl().search}`, origin))).status).toBe(400);
  });

  it('shows an error page for an unknown app or a bad redirect_uri', async () => {
    const unknown = await fetch(dialogUrl({ client_id: 'nobody' }));
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('Invalid App ID');
    const badRedirect = await fetch(dialogUrl({ redirect_uri: 'ftp://example.com/cb' }));
    expect(badRedirect.status).toBe(400);
  });

  it('escapes reflected values', async () => {
    const html = await (await fetch(dialogUrl({ state: '"><img src=x onerror=alert(1)>' }))).text();
    expect(html).not.toContain('<img');
    expect(html).toContain('value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
  });
});

describe('code exchange', () => {
  it('exchanges the code with the PKCE verifier for a bearer token', async () => {
    const { code, codeVerifier } = await logIn();
    const response = await exchangeCode({ code, code_verifier: codeVerifier });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      access_token: expect.stringMatching(/^EAA/),
      token_type: 'bearer',
      expires_in: 5183944,
    });
  });

  it('rejects a wrong verifier', async () => {
    const { code } = await logIn();
    await expectGraphError(
      await exchangeCode({ code, code_verifier: randomBytes(32).toString('base64url') }),
      100,
    );
  });

  it('rejects a missing verifier when the dialog had a challenge', async () => {
    const { code } = await logIn();
    await expectGraphError(await exchangeCode({ code }), 100);
  });

  it('accepts a code only once', async () => {
    const { code, codeVerifier } = await logIn();
    expect((await exchangeCode({ code, code_verifier: codeVerifier })).status).toBe(200);
    const error = await expectGraphError(
      await exchangeCode({ code, code_verifier: codeVerifier }),
      100,
      36009,
    );
    expect(error.message).toBe('This authorization code has been used.');
  });

  it('rejects a redirect_uri that differs from the dialog', async () => {
    const { code, codeVerifier } = await logIn();
    const response = await exchangeCode({
      code,
      code_verifier: codeVerifier,
      redirect_uri: `${REDIRECT_URI}/`,
    });
    await expectGraphError(response, 100, 36008);
  });

  it('rejects a wrong client secret and an unknown code', async () => {
    const { code, codeVerifier } = await logIn();
    const wrongSecret = await exchangeCode({ code, code_verifier: codeVerifier, client_secret: 'nope' });
    await expectGraphError(wrongSecret, 1);
    await expectGraphError(await exchangeCode({ code: 'AQnotacode' }), 100);
  });

  it('works without PKCE when the dialog had no challenge', async () => {
    const url = dialogUrl();
    const html = await (await fetch(url)).text();
    const location = (await submitForm(url.href, html, {})).headers.get('location') ?? '';
    const code = new URL(location).searchParams.get('code') ?? '';
    expect((await exchangeCode({ code })).status).toBe(200);
  });
});

describe('/me', () => {
  it('returns the requested fields with an app-scoped id', async () => {
    const token = await accessTokenFor({
      email: 'Katherine.Johnson@example.com',
      name: 'Katherine Coleman Johnson',
    });
    const response = await me(token, { fields: 'id,name,first_name,email', appsecret_proof: proof(token) });
    expect(response.status).toBe(200);
    const profile = (await response.json()) as Record<string, string>;
    expect(profile).toEqual({
      id: expect.stringMatching(/^\d{17}$/),
      name: 'Katherine Coleman Johnson',
      first_name: 'Katherine',
      email: 'katherine.johnson@example.com',
    });
  });

  it('defaults to id,name and takes the token from the query too', async () => {
    const token = await accessTokenFor();
    const response = await fetch(`${graphUrl}/me?access_token=${encodeURIComponent(token)}`);
    expect(await response.json()).toEqual({ id: expect.any(String), name: 'Grace Hopper' });
  });

  it('gives the same e-mail the same id and another e-mail another id', async () => {
    const idOf = async (email: string) => {
      const token = await accessTokenFor({ email });
      return ((await (await me(token)).json()) as { id: string }).id;
    };
    const first = await idOf('grace@example.com');
    expect(await idOf('GRACE@example.com')).toBe(first);
    expect(await idOf('ada@example.com')).not.toBe(first);
  });

  it('leaves email out when the permission was not requested', async () => {
    const token = await accessTokenFor({ params: { scope: 'public_profile' } });
    expect(await (await me(token, { fields: 'id,email' })).json()).toEqual({ id: expect.any(String) });
  });

  it('rejects a bad token with code 190', async () => {
    await expectGraphError(await me('EAAnotatoken'), 190);
  });

  it('rejects a wrong appsecret_proof', async () => {
    const token = await accessTokenFor();
    const error = await expectGraphError(await me(token, { appsecret_proof: proof(`${token}x`) }), 100);
    expect(error.message).toBe('Invalid appsecret_proof provided in the API argument');
  });

  it('rejects an unknown field', async () => {
    const token = await accessTokenFor();
    await expectGraphError(await me(token, { fields: 'id,birthday' }), 100);
  });
});

describe('emulator state', () => {
  it('shows users, live codes, tokens and request counts across versions, and resets', async () => {
    const token = await accessTokenFor();
    await fetch(`${origin}/me?access_token=${encodeURIComponent(token)}`);
    await me(token);
    const state = await (await fetch(`${origin}/_emulator/state`)).json();
    expect(state).toMatchObject({
      users: [{ email: 'grace.hopper@example.com', name: 'Grace Hopper' }],
      liveCodes: 0,
      tokens: [{ token, appId: APP.appId, scopes: ['public_profile', 'email'] }],
      requests: {
        'GET /dialog/oauth': 1,
        'POST /dialog/oauth': 1,
        'GET /oauth/access_token': 1,
        'GET /me': 2,
      },
    });

    await fetch(`${origin}/_emulator/reset`, { method: 'POST' });
    expect(await (await fetch(`${origin}/_emulator/state`)).json()).toMatchObject({
      users: [],
      liveCodes: 0,
      tokens: [],
    });
    await expectGraphError(await me(token), 190);
  });
});

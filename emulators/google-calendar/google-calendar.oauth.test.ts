import { describe, expect, it } from 'vitest';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import { expectAccountForm } from '../shared/testing/sign-in-form.ts';
import {
  CALENDAR_SCOPE,
  CLIENT,
  consent,
  control,
  failure,
  oauthClient,
  REDIRECT_URI,
  signIn,
  startHarness,
} from './google-calendar.test-support.ts';

let origin: string;
setUpEmulator(startHarness, (started) => {
  origin = started.origin;
});

const tokenRequests = async () =>
  ((await (await control(origin, 'state', undefined, 'GET')).json()) as { requests: Record<string, number> })
    .requests['POST /token'] ?? 0;

describe('consent page', () => {
  it('shows the account form pre-filled, with the client and the requested access', async () => {
    const { page, html } = await consent(oauthClient(origin), { decision: 'cancel' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expectAccountForm(html, { email: 'ada.lovelace@example.com', name: 'Ada Lovelace' });
    expect(html).toContain('Timeboxer wants to access your Google Account');
    expect(html).toContain('permanently delete all the calendars');
  });

  it('pre-fills the Email from login_hint, as Google offers the hinted account', async () => {
    const url = oauthClient(origin).generateAuthUrl({
      scope: [CALENDAR_SCOPE],
      state: 'state-123',
      login_hint: 'grace.hopper@example.com',
    });
    const html = await (await fetch(url)).text();
    expect(html).toMatch(
      /<input id="email" name="email" type="email"[^>]*value="grace\.hopper@example\.com"/,
    );
  });

  it('redirects with access_denied and the state when the user cancels', async () => {
    const { status, location } = await consent(oauthClient(origin), { decision: 'cancel' });
    expect(status).toBe(302);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(Object.fromEntries(location.searchParams)).toEqual({ error: 'access_denied', state: 'state-123' });
  });

  it.each([
    [{ client_id: 'unknown' }, 'invalid_client'],
    [{ scope: 'https://www.googleapis.com/auth/drive' }, 'invalid_scope'],
    [{ scope: 'openid email' }, 'invalid_scope'],
    [{ response_type: 'token' }, 'unsupported_response_type'],
    [{ redirect_uri: 'javascript:alert(1)' }, 'invalid_request'],
  ])('answers a bad authorization request %o with an error page', async (override, error) => {
    const url = new URL(`${origin}/o/oauth2/v2/auth`);
    url.search = new URLSearchParams({
      client_id: CLIENT.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: CALENDAR_SCOPE,
      ...override,
    }).toString();
    const response = await fetch(url);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(error);
  });
});

describe('code exchange', () => {
  it('gives a short-lived access token and, offline with prompt=consent, a refresh token', async () => {
    const client = oauthClient(origin);
    const { location, codeVerifier } = await consent(client);
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(location.searchParams.get('scope')).toBe(CALENDAR_SCOPE);
    const before = Date.now();
    const { tokens } = await client.getToken({ code: location.searchParams.get('code') ?? '', codeVerifier });
    expect(tokens).toMatchObject({
      access_token: expect.stringMatching(/^ya29\./),
      refresh_token: expect.stringMatching(/^1\/\/0/),
      scope: CALENDAR_SCOPE,
      token_type: 'Bearer',
    });
    expect(tokens.expiry_date).toBeGreaterThanOrEqual(before + 3599_000);
    expect(tokens.expiry_date).toBeLessThan(before + 3610_000);

    const info = await client.getTokenInfo(tokens.access_token ?? '');
    expect(info).toMatchObject({ aud: CLIENT.clientId, scopes: [CALENDAR_SCOPE] });
  });

  it('refuses a wrong PKCE verifier and a code used twice', async () => {
    const client = oauthClient(origin);
    const { location, codeVerifier } = await consent(client);
    const code = location.searchParams.get('code') ?? '';
    const wrong = await failure(client.getToken({ code, codeVerifier: `${codeVerifier}x` }));
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'invalid_grant' });
    const again = await failure(client.getToken({ code, codeVerifier }));
    expect(again.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('gives no refresh token online, nor again offline without prompt=consent', async () => {
    const online = await signIn(origin, { offline: false });
    expect(online.tokens.refresh_token).toBeUndefined();
    const first = await signIn(origin, { prompt: 'select_account' });
    expect(first.tokens.refresh_token).toBeDefined();
    const second = await signIn(origin, { prompt: 'select_account' });
    expect(second.tokens.refresh_token).toBeUndefined();
  });

  it('rejects a wrong client secret', async () => {
    const response = await fetch(`${origin}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: 'x',
        client_id: CLIENT.clientId,
        client_secret: 'wrong',
      }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });
});

describe('expiry, refresh and revocation', () => {
  it('refreshes by itself once the access token has expired (client knows the expiry)', async () => {
    const { client, api, tokens } = await signIn(origin);
    await control(origin, 'oauth/expire-access-tokens', {});
    client.setCredentials({ ...tokens, expiry_date: Date.now() - 1000 });
    const list = await api.calendarList.list();
    expect(list.status).toBe(200);
    expect(client.credentials.access_token).not.toBe(tokens.access_token);
    expect(await tokenRequests()).toBe(2);
  });

  it('refreshes by itself on a 401 when told to (token expired early on the server)', async () => {
    const { api } = await signIn(origin, { forceRefreshOnFailure: true });
    await control(origin, 'oauth/expire-access-tokens', { email: 'ada.lovelace@example.com' });
    expect((await api.colors.get()).status).toBe(200);
    expect(await tokenRequests()).toBe(2);
  });

  it('answers 401 to an expired token when the client does not refresh', async () => {
    const { api } = await signIn(origin);
    await control(origin, 'oauth/expire-access-tokens', {});
    const result = await failure(api.calendarList.list());
    expect(result.status).toBe(401);
    expect(result.body?.error.errors[0]?.reason).toBe('authError');
  });

  it('revokes the grant: the API refuses the token and the refresh token stops working', async () => {
    const { client, api, tokens } = await signIn(origin);
    await client.revokeToken(tokens.access_token ?? '');
    expect((await failure(api.calendarList.list())).status).toBe(401);
    const refresh = await failure(client.refreshAccessToken());
    expect(refresh.body).toMatchObject({ error: 'invalid_grant' });
    const again = await fetch(`${origin}/revoke?token=${tokens.refresh_token}`, { method: 'POST' });
    expect(again.status).toBe(400);
  });
});

describe('accounts', () => {
  it('makes each e-mail its own account with seeded calendars', async () => {
    const ada = await signIn(origin);
    const grace = await signIn(origin, { email: 'Grace.Hopper@example.com', name: 'Grace Hopper' });
    const adaCalendars = (await ada.api.calendarList.list()).data.items ?? [];
    const graceCalendars = (await grace.api.calendarList.list()).data.items ?? [];
    expect(adaCalendars.map((c) => c.summary)).toEqual(['ada.lovelace@example.com', 'Work', 'Timeboxer']);
    expect(graceCalendars.map((c) => c.summary)).toEqual(['grace.hopper@example.com', 'Work', 'Timeboxer']);
    expect(graceCalendars[1]?.id).not.toBe(adaCalendars[1]?.id);

    await ada.api.events.insert({
      calendarId: 'primary',
      requestBody: { summary: 'Ada only', start: { date: '2030-01-01' }, end: { date: '2030-01-02' } },
    });
    expect((await grace.api.events.list({ calendarId: 'primary' })).data.items).toEqual([]);
    const foreign = await failure(grace.api.events.list({ calendarId: adaCalendars[1]?.id ?? '' }));
    expect(foreign.status).toBe(404);
  });
});

import { describe, expect, it } from 'vitest';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import { expectAccountForm } from '../shared/testing/sign-in-form.ts';
import {
  APP_SCOPE,
  CLIENT,
  graphClient,
  REDIRECT_URI,
  signIn,
  startMicrosoftEmulator,
  tokenRequest,
} from './microsoft.testing.ts';

let origin: string;

setUpEmulator(startMicrosoftEmulator, (started) => {
  origin = started.origin;
});

/** The authorization endpoint of the common tenant, asked by the app's client with `params`. */
const authorizeUrl = (params: Record<string, string>) =>
  `${origin}/common/oauth2/v2.0/authorize?${new URLSearchParams({
    client_id: CLIENT.clientId,
    redirect_uri: REDIRECT_URI,
    scope: APP_SCOPE,
    ...params,
  })}`;

const redeem = (code: string, codeVerifier: string, extra: Record<string, string> = {}) =>
  tokenRequest(origin, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: codeVerifier,
    ...extra,
  });

describe('consent page', () => {
  it('is served over https with the Email and Name inputs pre-filled and Continue/Cancel', async () => {
    const { page, html } = await signIn(origin);
    expect(origin).toMatch(/^https:\/\/localhost:\d+$/);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(html).toContain('<title>Sign in to your Microsoft account (sandbox)</title>');
    expect(html).toContain('data-brand="microsoft"');
    expectAccountForm(html, { email: 'ada.lovelace@example.com', name: 'Ada Lovelace' });
    expect(html).toContain('Timeboxer (test) wants to: offline_access, User.Read, Calendars.ReadWrite');
  });

  it('pre-fills the Email from login_hint', async () => {
    const { html } = await signIn(origin, { params: { login_hint: 'grace.hopper@example.com' } });
    expect(html).toMatch(
      /<input id="email" name="email" type="email"[^>]*value="grace\.hopper@example\.com"/,
    );
  });

  it('redirects back with a code and the state after Continue', async () => {
    const { response, location, code } = await signIn(origin);
    expect(response.status).toBe(302);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(code).toMatch(/^M\.C5/);
  });

  it('redirects with access_denied (AADSTS65004) after Cancel', async () => {
    const { location } = await signIn(origin, { decision: 'cancel' });
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('error_subcode')).toBe('cancel');
    expect(location.searchParams.get('error_description')).toMatch(/^AADSTS65004: /);
    expect(location.searchParams.get('state')).toBe('state-123');
  });

  it('accepts common, consumers, organizations and a tenant GUID, and rejects an unknown tenant', async () => {
    for (const tenant of ['common', 'consumers', 'organizations', '72f988bf-86f1-41af-91ab-2d7cd011db47']) {
      expect((await signIn(origin, { tenant })).code).not.toBe('');
    }
    const page = await fetch(`${origin}/not_a_tenant/oauth2/v2.0/authorize?client_id=${CLIENT.clientId}`);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('AADSTS90002');
  });

  it.each([
    [{ client_id: 'unknown' }, 'AADSTS700016'],
    [{ redirect_uri: 'http://localhost:3000/elsewhere' }, 'AADSTS50011'],
  ])('shows an error page for %o', async (params, code) => {
    const page = await fetch(authorizeUrl({ response_type: 'code', ...params }));
    expect(page.status).toBe(400);
    expect(await page.text()).toContain(code);
  });

  it('sends errors found after the redirect URI is trusted back to the client', async () => {
    const response = await fetch(authorizeUrl({ response_type: 'token', state: 's' }), {
      redirect: 'manual',
    });
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.searchParams.get('error')).toBe('unsupported_response_type');
    expect(location.searchParams.get('state')).toBe('s');
  });
});

describe('token endpoint', () => {
  it('redeems a code with PKCE for an access token and, with offline_access, a refresh token', async () => {
    const { code, codeVerifier } = await signIn(origin);
    const { status, body } = await redeem(code, codeVerifier);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      token_type: 'Bearer',
      scope: 'User.Read Calendars.ReadWrite MailboxSettings.ReadWrite',
      expires_in: 3599,
      ext_expires_in: 3599,
      access_token: expect.any(String),
      refresh_token: expect.any(String),
    });
    const me = await graphClient(origin, String(body.access_token)).api('/me').get();
    expect(me.mail).toBe('ada.lovelace@example.com');
  });

  it('gives no refresh token without offline_access', async () => {
    const { code, codeVerifier } = await signIn(origin, { scope: 'User.Read Calendars.ReadWrite' });
    const { body } = await redeem(code, codeVerifier);
    expect(body.access_token).toEqual(expect.any(String));
    expect(body).not.toHaveProperty('refresh_token');
  });

  it('rejects a wrong code_verifier with invalid_grant AADSTS501481', async () => {
    const { code } = await signIn(origin);
    const { status, body } = await redeem(code, 'a-different-verifier-that-is-long-enough-to-count');
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'invalid_grant', error_codes: [501481] });
    expect(String(body.error_description)).toMatch(
      /^AADSTS501481: .* Trace ID: .* Correlation ID: .* Timestamp: /,
    );
    expect(body).toHaveProperty('trace_id');
    expect(body).toHaveProperty('correlation_id');
    expect(body).toHaveProperty('timestamp');
  });

  it('accepts a code only once (AADSTS54005)', async () => {
    const { code, codeVerifier } = await signIn(origin);
    expect((await redeem(code, codeVerifier)).status).toBe(200);
    const again = await redeem(code, codeVerifier);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'invalid_grant', error_codes: [54005] });
  });

  it('checks the redirect URI and the client secret', async () => {
    const { code, codeVerifier } = await signIn(origin);
    const wrongRedirect = await redeem(code, codeVerifier, { redirect_uri: 'http://localhost:3000/other' });
    expect(wrongRedirect.body).toMatchObject({ error: 'invalid_grant', error_codes: [500112] });
    const second = await signIn(origin);
    const wrongSecret = await redeem(second.code, second.codeVerifier, { client_secret: 'nope' });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body).toMatchObject({ error: 'invalid_client', error_codes: [7000215] });
  });

  it('rotates refresh tokens: each refresh returns a new access and refresh token', async () => {
    const { code, codeVerifier } = await signIn(origin);
    const first = (await redeem(code, codeVerifier)).body;
    const refreshed = await tokenRequest(origin, {
      grant_type: 'refresh_token',
      refresh_token: String(first.refresh_token),
      scope: APP_SCOPE,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).toEqual(expect.any(String));
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
    expect(refreshed.body.access_token).not.toBe(first.access_token);
    const me = await graphClient(origin, String(refreshed.body.access_token)).api('/me').get();
    expect(me.displayName).toBe('Ada Lovelace');
  });

  it('refuses a refresh for scopes never consented to (AADSTS65001) and a revoked refresh token (AADSTS50173)', async () => {
    const { code, codeVerifier } = await signIn(origin);
    const tokens = (await redeem(code, codeVerifier)).body;
    const broader = await tokenRequest(origin, {
      grant_type: 'refresh_token',
      refresh_token: String(tokens.refresh_token),
      scope: 'Mail.Read',
    });
    expect(broader.body).toMatchObject({ error: 'invalid_grant', error_codes: [65001] });
    await fetch(`${origin}/_emulator/refresh-tokens/revoke`, { method: 'POST' });
    const revoked = await tokenRequest(origin, {
      grant_type: 'refresh_token',
      refresh_token: String(tokens.refresh_token),
    });
    expect(revoked.status).toBe(400);
    expect(revoked.body).toMatchObject({ error: 'invalid_grant', error_codes: [50173] });
    const garbage = await tokenRequest(origin, { grant_type: 'refresh_token', refresh_token: 'garbage' });
    expect(garbage.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('rejects an unsupported grant type', async () => {
    const { status, body } = await tokenRequest(origin, { grant_type: 'password' });
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'unsupported_grant_type', error_codes: [70003] });
  });

  it('gives each e-mail its own user and mailbox', async () => {
    const ada = (await redeem(...codeAndVerifier(await signIn(origin)))).body;
    const grace = (
      await redeem(
        ...codeAndVerifier(await signIn(origin, { email: 'grace.hopper@example.com', name: 'Grace Hopper' })),
      )
    ).body;
    const adaMe = await graphClient(origin, String(ada.access_token)).api('/me').get();
    const graceMe = await graphClient(origin, String(grace.access_token)).api('/me').get();
    expect(adaMe.id).not.toBe(graceMe.id);
    expect(graceMe).toMatchObject({ displayName: 'Grace Hopper', mail: 'grace.hopper@example.com' });
    const adaCalendars = await graphClient(origin, String(ada.access_token)).api('/me/calendars').get();
    const graceCalendars = await graphClient(origin, String(grace.access_token)).api('/me/calendars').get();
    const ids = (list: { value: { id: string }[] }) => list.value.map((calendar) => calendar.id);
    expect(ids(adaCalendars).some((id) => ids(graceCalendars).includes(id))).toBe(false);
  });
});

function codeAndVerifier(result: { code: string; codeVerifier: string }): [string, string] {
  return [result.code, result.codeVerifier];
}

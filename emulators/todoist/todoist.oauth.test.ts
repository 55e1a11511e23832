import { getAuthorizationUrl, getAuthToken, type Permission, revokeToken } from '@doist/todoist-sdk';
import { describe, expect, it } from 'vitest';
import { submitForm } from '../shared/testing/html-form.ts';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import { expectAccountForm } from '../shared/testing/sign-in-form.ts';
import { type RunningTodoist, rejection, sdk, startTodoist, TEST_APP } from './todoist.test-support.ts';

let todoist: RunningTodoist;

setUpEmulator(startTodoist, (started) => {
  todoist = started;
});

function authorizeUrl(
  state = 'state-123',
  permissions: Permission[] = ['data:read_write', 'data:delete'],
): string {
  return getAuthorizationUrl({
    clientId: TEST_APP.clientId,
    permissions,
    state,
    baseUrl: todoist.origin,
  });
}

async function consent(url: string, values: Record<string, string> = {}) {
  const page = await fetch(url);
  const html = await page.text();
  const response = await submitForm(url, html, { decision: 'continue', ...values });
  return {
    page,
    html,
    response,
    location: new URL(response.headers.get('location') ?? '', 'http://invalid'),
  };
}

async function tokenFor(email: string, name = 'Someone'): Promise<string> {
  const { location } = await consent(authorizeUrl(), { email, name });
  const code = location.searchParams.get('code') ?? '';
  const token = await getAuthToken(
    { clientId: TEST_APP.clientId, clientSecret: TEST_APP.clientSecret, code },
    { baseUrl: todoist.origin },
  );
  return token.accessToken;
}

describe('authorization page', () => {
  it('shows the consent form with pre-filled Email and Name, Continue and Cancel', async () => {
    const url = authorizeUrl();
    expect(url).toBe(
      `${todoist.origin}/oauth/authorize?client_id=${TEST_APP.clientId}&scope=data:read_write,data:delete&state=state-123`,
    );
    const { page, html } = await consent(url);
    expect(page.status).toBe(200);
    expectAccountForm(html, { email: 'ada.lovelace@example.com', name: 'Ada Lovelace' });
    expect(html).toContain('Timeboxer');
  });

  it('pre-fills the Email from login_hint (escaped), and signs in whoever is submitted', async () => {
    const url = `${authorizeUrl()}&login_hint=${encodeURIComponent('grace"<x>@example.com')}`;
    const html = await (await fetch(url)).text();
    expect(html).toMatch(/<input id="email"[^>]*value="grace&quot;&lt;x&gt;@example\.com"/);
    const hinted = await (await fetch(`${authorizeUrl()}&login_hint=grace%40example.com`)).text();
    expect(hinted).toMatch(/<input id="email"[^>]*value="grace@example\.com"/);
  });

  it('redirects to the registered URI with code and state', async () => {
    const { response, location } = await consent(authorizeUrl());
    expect(response.status).toBe(302);
    expect(`${location.origin}${location.pathname}`).toBe(TEST_APP.redirectUri);
    expect(location.searchParams.get('code')).toMatch(/^\w{40}$/);
    expect(location.searchParams.get('state')).toBe('state-123');
  });

  it('accepts a redirect_uri parameter equal to the registered one and refuses another', async () => {
    const matching = `${authorizeUrl()}&redirect_uri=${encodeURIComponent(TEST_APP.redirectUri)}`;
    expect((await consent(matching)).response.status).toBe(302);
    const other = await fetch(
      `${authorizeUrl()}&redirect_uri=${encodeURIComponent('http://evil.example/cb')}`,
    );
    expect(other.status).toBe(400);
  });

  it('redirects with access_denied on Cancel and invalid_scope for an unknown scope', async () => {
    const { location } = await consent(authorizeUrl(), { decision: 'cancel' });
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('state-123');
    const badScope = await fetch(authorizeUrl('s', ['data:everything' as Permission]), {
      redirect: 'manual',
    });
    expect(badScope.status).toBe(302);
    expect(badScope.headers.get('location')).toBe(`${TEST_APP.redirectUri}?error=invalid_scope&state=s`);
  });

  it('shows an error page for an unknown client', async () => {
    const response = await fetch(`${todoist.origin}/oauth/authorize?client_id=nope&scope=data:read&state=x`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Invalid client_id');
  });
});

describe('token exchange and revocation through the SDK helpers', () => {
  it('exchanges the code for a Bearer token of that user', async () => {
    const { location } = await consent(authorizeUrl(), { email: 'grace@example.com', name: 'Grace Hopper' });
    const token = await getAuthToken(
      {
        clientId: TEST_APP.clientId,
        clientSecret: TEST_APP.clientSecret,
        code: location.searchParams.get('code') ?? '',
      },
      { baseUrl: todoist.origin },
    );
    expect(token).toMatchObject({
      accessToken: expect.stringMatching(/^[0-9a-f]{40}$/),
      tokenType: 'Bearer',
    });
    const me = await sdk(todoist.origin, token.accessToken).getUser();
    expect(me).toMatchObject({ email: 'grace@example.com', fullName: 'Grace Hopper' });
  });

  it("maps the same e-mail to the same user and keeps users' data apart", async () => {
    const first = sdk(todoist.origin, await tokenFor('ada@example.com'));
    const second = sdk(todoist.origin, await tokenFor('ada@example.com'));
    const other = sdk(todoist.origin, await tokenFor('grace@example.com'));
    expect((await first.getUser()).id).toBe((await second.getUser()).id);
    expect((await other.getUser()).id).not.toBe((await first.getUser()).id);
    await first.addTask({ content: 'Ada only' });
    expect((await second.getTasks()).results).toHaveLength(1);
    expect((await other.getTasks()).results).toHaveLength(0);
  });

  it('refuses a reused code and wrong client credentials', async () => {
    const { location } = await consent(authorizeUrl());
    const code = location.searchParams.get('code') ?? '';
    const args = { clientId: TEST_APP.clientId, clientSecret: TEST_APP.clientSecret, code };
    await getAuthToken(args, { baseUrl: todoist.origin });
    const reused = await rejection(getAuthToken(args, { baseUrl: todoist.origin }));
    expect(reused).toMatchObject({ httpStatusCode: 400, responseData: { error: 'bad_authorization_code' } });
    const wrongSecret = await rejection(
      getAuthToken({ ...args, clientSecret: 'wrong' }, { baseUrl: todoist.origin }),
    );
    expect(wrongSecret).toMatchObject({
      httpStatusCode: 400,
      responseData: { error: 'incorrect_application_credentials' },
    });
  });

  it('accepts a form-encoded exchange too', async () => {
    const { location } = await consent(authorizeUrl());
    const response = await fetch(`${todoist.origin}/oauth/access_token`, {
      method: 'POST',
      body: new URLSearchParams({
        client_id: TEST_APP.clientId,
        client_secret: TEST_APP.clientSecret,
        code: location.searchParams.get('code') ?? '',
      }),
    });
    expect(await response.json()).toMatchObject({ token_type: 'Bearer' });
  });

  it('revokes a token (RFC 7009) so it answers 401 afterwards', async () => {
    const token = await tokenFor('ada@example.com');
    const api = sdk(todoist.origin, token);
    await api.getUser();
    const revoked = await revokeToken(
      { clientId: TEST_APP.clientId, clientSecret: TEST_APP.clientSecret, token },
      { baseUrl: todoist.origin },
    );
    expect(revoked).toBe(true);
    expect((await rejection(api.getUser())).httpStatusCode).toBe(401);
    const badClient = await rejection(
      revokeToken({ clientId: TEST_APP.clientId, clientSecret: 'wrong', token }, { baseUrl: todoist.origin }),
    );
    expect(badClient.httpStatusCode).toBe(401);
  });

  it('revokes through DELETE /api/v1/access_tokens as the Python SDK does', async () => {
    const token = await tokenFor('ada@example.com');
    const query = new URLSearchParams({
      client_id: TEST_APP.clientId,
      client_secret: TEST_APP.clientSecret,
      access_token: token,
    });
    const response = await fetch(`${todoist.origin}/api/v1/access_tokens?${query}`, { method: 'DELETE' });
    expect(response.status).toBe(200);
    expect((await rejection(sdk(todoist.origin, token).getUser())).httpStatusCode).toBe(401);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '#server/app.ts';
import type { IdentityProvider } from '#server/domain/auth/identity-provider.port.ts';
import { signInThroughEmulator } from '#server/test/sign-in.ts';
import { createTestApp, useTestApp } from '#server/test/test-app.ts';
import { CONNECT_PATHS } from '#shared/api/auth.schema.ts';

describe('sign-in through the emulated providers', () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const currentUser = async (session: { value: string } | undefined) =>
    app.server.inject({ url: '/api/current_user', cookies: session ? { sid: session.value } : {} });

  it.each(['google', 'facebook'] as const)(
    'signs a new user in with %s and creates their record',
    async (provider) => {
      const email = `${provider}-new@example.com`;
      const result = await signInThroughEmulator(app.server, provider, { email, name: 'Marie Curie' });
      expect(result.location).toBe('/dashboard');
      expect(result.sessionCookie).toBeDefined();

      const response = await currentUser(result.sessionCookie);
      expect(response.statusCode).toBe(200);
      const user = response.json();
      expect(user).toMatchObject({
        name: { firstName: 'Marie', displayName: 'Marie Curie' },
        email,
        syncActive: false,
        welcomeWizardSeen: false,
        payment: { subscriptionStatus: 'trial', canceled: false, plan: { interval: null } },
      });
      expect(provider === 'google' ? user.googleId : user.facebookId).toMatch(/^\d+$/);
      expect(provider === 'google' ? user.facebookId : user.googleId).toBeNull();
      const trialDays = (Date.parse(user.payment.validUntil) - Date.now()) / 86_400_000;
      expect(trialDays).toBeGreaterThan(13.9);
      expect(trialDays).toBeLessThanOrEqual(14);
      expect(JSON.stringify(user)).not.toMatch(/token|secret/i);
    },
  );

  it('finds the same user for the same e-mail, and a different one for a different e-mail', async () => {
    const first = await signInThroughEmulator(app.server, 'google', {
      email: 'same@example.com',
      name: 'A B',
    });
    const again = await signInThroughEmulator(app.server, 'google', {
      email: 'same@example.com',
      name: 'A B',
    });
    const other = await signInThroughEmulator(app.server, 'google', {
      email: 'other@example.com',
      name: 'C D',
    });
    const ids = await Promise.all(
      [first, again, other].map(async (r) => (await currentUser(r.sessionCookie)).json().id),
    );
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  it('issues a new session id at every sign-in and ends the previous one', async () => {
    const first = await signInThroughEmulator(app.server, 'google', {
      email: 'rotate@example.com',
      name: 'R',
    });
    const second = await signInThroughEmulator(
      app.server,
      'google',
      { email: 'rotate@example.com', name: 'R' },
      { sid: first.sessionCookie?.value ?? '' },
    );
    expect(second.sessionCookie?.value).not.toBe(first.sessionCookie?.value);
    expect((await currentUser(first.sessionCookie)).body).toBe('');
    expect((await currentUser(second.sessionCookie)).json().email).toBe('rotate@example.com');
  });

  it('returns to the login page when the person cancels at the provider', async () => {
    const result = await signInThroughEmulator(app.server, 'facebook', {
      email: 'cancel@example.com',
      name: 'C',
      decision: 'cancel',
    });
    expect(result.location).toBe('/login?error=cancelled');
    expect(result.sessionCookie).toBeUndefined();
  });

  it('sends the browser to the provider with state, PKCE and a short-lived signed flow cookie', async () => {
    const response = await app.server.inject({ url: '/auth/google' });
    const location = new URL(String(response.headers.location));
    expect(location.origin).toBe(app.emulators?.google.origin);
    expect(location.searchParams.get('state')).toHaveLength(43);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('redirect_uri')).toBe('http://localhost:3000/auth/google/callback');
    const flow = response.cookies.find((cookie) => cookie.name === 'signin');
    expect(flow).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/auth', maxAge: 600 });
    expect(flow?.value).not.toContain(location.searchParams.get('code_challenge'));
  });

  it('refuses a callback without the flow cookie, or with a forged one', async () => {
    const start = await app.server.inject({ url: '/auth/google' });
    const state = new URL(String(start.headers.location)).searchParams.get('state');
    const withoutCookie = await app.server.inject({ url: `/auth/google/callback?code=x&state=${state}` });
    expect(withoutCookie.headers.location).toBe('/login?error=expired');

    const forged = JSON.stringify({
      provider: 'google',
      state,
      nonce: 'n'.repeat(43),
      codeVerifier: 'v'.repeat(43),
    });
    const withForged = await app.server.inject({
      url: `/auth/google/callback?code=x&state=${state}`,
      cookies: { signin: forged },
    });
    expect(withForged.headers.location).toBe('/login?error=expired');
  });

  it('refuses a flow started for the other provider', async () => {
    const start = await app.server.inject({ url: '/auth/facebook' });
    const flow = start.cookies.find((cookie) => cookie.name === 'signin')?.value ?? '';
    const response = await app.server.inject({
      url: '/auth/google/callback?code=x&state=y',
      cookies: { signin: flow },
    });
    expect(response.headers.location).toBe('/login?error=expired');
  });

  it('reports a failed code exchange without signing anyone in', async () => {
    const start = await app.server.inject({ url: '/auth/google' });
    const state = new URL(String(start.headers.location)).searchParams.get('state');
    const flow = start.cookies.find((cookie) => cookie.name === 'signin')?.value ?? '';
    const response = await app.server.inject({
      url: `/auth/google/callback?code=invented&state=${state}`,
      cookies: { signin: flow },
    });
    expect(response.headers.location).toBe('/login?error=failed');
    expect(response.cookies.find((cookie) => cookie.name === 'sid')).toBeUndefined();
  });
});

describe('sign-in without a configured provider', () => {
  const onlyGoogle: Partial<Record<'google', IdentityProvider>> = {
    google: {
      name: 'google',
      authorizationUrl: async () => new URL('https://accounts.example/auth'),
      exchange: async () => {
        throw new Error('not used');
      },
    },
  };
  const app = useTestApp({ overrides: { identityProviders: onlyGoogle } });

  it('explains on the login page that the option is unavailable', async () => {
    const response = await app().server.inject({ url: '/auth/facebook' });
    expect(response.headers.location).toBe('/login?error=unavailable');
  });
});

describe('auth rate limit', () => {
  /** Where each sign-in start sent the browser: the provider, or back to the login page with a reason. */
  const destinations = async (
    app: App,
    headers: (attempt: number) => Record<string, string> = () => ({}),
  ) => {
    const where: string[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await app.server.inject({ url: '/auth/google', headers: headers(attempt) });
      expect(response.statusCode).toBe(302);
      const location = String(response.headers.location);
      where.push(location.startsWith('/login') ? location : 'provider');
    }
    return where;
  };
  const overLimit = ['provider', 'provider', 'provider', '/login?error=too-many', '/login?error=too-many'];

  describe('per client address', () => {
    const limited = useTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '3' } });

    it('sends a client over the per-minute limit back to the login page, which says why', async () => {
      const app = limited();
      expect(await destinations(app)).toEqual(overLimit);
      // Connecting an account is a navigation too: over the limit, the dashboard says why, never raw JSON.
      for (const [provider, path] of Object.entries(CONNECT_PATHS)) {
        for (const url of [path, `${path}/callback?code=x&state=y`]) {
          const where: string[] = [];
          for (let attempt = 0; attempt < 5; attempt++) {
            const response = await app.server.inject({ url });
            expect(response.statusCode, `${url} ${response.body}`).toBe(302);
            where.push(String(response.headers.location));
          }
          const tooMany = `/dashboard?connect_error=too-many&provider=${provider}`;
          expect(where, url).toEqual(['/login', '/login', '/login', tooMany, tooMany]);
        }
      }
    });
  });

  describe('behind a proxy', () => {
    const proxied = useTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: 'true' } });

    it('counts the address our proxy saw, not one the client wrote into X-Forwarded-For', async () => {
      // The client forges the left entry; our one proxy appends the address it saw.
      const forged = (attempt: number) => ({ 'x-forwarded-for': `198.51.100.${attempt}, 203.0.113.7` });
      expect(await destinations(proxied(), forged)).toEqual(overLimit);
    });
  });

  describe('with the provider unreachable', () => {
    const unreachable: IdentityProvider = {
      name: 'google',
      authorizationUrl: async () => {
        throw new Error('discovery failed: connect ECONNREFUSED');
      },
      exchange: async () => {
        throw new Error('not reached');
      },
    };
    const app = useTestApp({ overrides: { identityProviders: { google: unreachable } } });

    it('lands on the login page when the provider cannot be reached to start', async () => {
      const response = await app().server.inject({ url: '/auth/google' });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/login?error=failed');
    });
  });
});

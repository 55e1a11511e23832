import { revokeToken, TodoistApi } from '@doist/todoist-sdk';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '#server/app.ts';
import { integrations } from '#server/db/schema/integrations.table.ts';
import { createTokenCipher } from '#server/domain/integrations/token-cipher.ts';
import { type ConnectProvider, connectThroughEmulator, signInThroughEmulator } from '#server/test/sign-in.ts';
import { createTestApp, crossSite, sameOrigin } from '#server/test/test-app.ts';

type Cookies = Record<string, string>;

describe('integrations against the emulated Todoist, Google Calendar and Microsoft 365', () => {
  let app: App;
  let origins: { todoist: string; google: string; microsoft: string };

  beforeAll(async () => {
    app = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
    const emulators = app.emulators;
    if (!emulators) throw new Error('the test app runs in sandbox mode');
    origins = {
      todoist: emulators.todoist.origin,
      google: emulators.googleCalendar.origin,
      microsoft: emulators.microsoft.origin,
    };
  });
  afterAll(() => app.close());

  const signIn = async (email: string): Promise<Cookies> => {
    const { sessionCookie } = await signInThroughEmulator(app.server, 'google', { email, name: 'Ada User' });
    return { sid: sessionCookie?.value ?? '' };
  };
  const get = (url: string, cookies: Cookies, headers: Record<string, string> = sameOrigin) =>
    app.server.inject({ url, cookies, headers });
  const currentUser = async (cookies: Cookies) => (await get('/api/current_user', cookies)).json();
  const connect = async (provider: ConnectProvider, cookies: Cookies, email: string) => {
    const { location } = await connectThroughEmulator(app.server, provider, { email }, cookies);
    expect(location).toBe(`/dashboard?connected=${provider}`);
  };
  const control = async (origin: string, path: string, body?: unknown, method = 'POST') => {
    const response = await fetch(`${origin}/_emulator/${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    expect(response.ok).toBe(true);
    return response.json();
  };
  const storedRow = async (userId: string, kind: 'todoist' | 'calendar') => {
    const [row] = await app.database.db
      .select()
      .from(integrations)
      .where(and(eq(integrations.userId, userId), eq(integrations.kind, kind)));
    return row;
  };
  const storedAccessToken = async (userId: string, kind: 'todoist' | 'calendar') => {
    const row = await storedRow(userId, kind);
    return createTokenCipher(app.config.tokenKeys).decrypt(row?.accessTokenEncrypted ?? '');
  };
  /** A Todoist user with labels and a plan, and a token of their own to act in Todoist as they would. */
  const seedTodoist = async (email: string, premiumStatus = 'current_personal_plan') => {
    const seeded = await control(origins.todoist, 'seed', {
      users: [
        {
          email,
          premiumStatus,
          timezone: 'Europe/Berlin',
          labels: [
            { name: 'Focus', color: 'red' },
            { name: '30min', color: 'blue' },
          ],
        },
      ],
    });
    const user = seeded.users[0];
    return {
      todoistId: String(user.id),
      api: new TodoistApi(user.accessToken, { baseUrl: origins.todoist }),
    };
  };

  describe('connecting', () => {
    it('connects Todoist: account type, user id, time zone and labels sorted by item_order', async () => {
      const email = 'todoist-connect@example.com';
      const { todoistId } = await seedTodoist(email);
      const cookies = await signIn(email);
      const { consentUrl, location } = await connectThroughEmulator(
        app.server,
        'todoist',
        { email },
        cookies,
      );
      expect(location).toBe('/dashboard?connected=todoist');
      expect(consentUrl.pathname).toBe('/oauth/authorize');
      expect(consentUrl.searchParams.get('scope')).toBe('data:read_write,data:delete');
      expect(consentUrl.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
      expect(consentUrl.searchParams.get('redirect_uri')).toBe('http://localhost:3000/auth/todoist/callback');

      const { todoSettings } = await currentUser(cookies);
      expect(todoSettings).toMatchObject({
        provider: 'Todoist',
        connected: true,
        needsReconnect: false,
        accountType: 'Premium',
        userId: todoistId,
        timezone: { timezone: 'Europe/Berlin' },
      });
      expect(todoSettings.labels.map((label: { name: string }) => label.name)).toEqual(['Focus', '30min']);
      expect(todoSettings.labels[0]).toMatchObject({ id: expect.any(String), color: 'red', item_order: 1 });
    });

    it('connects Google Calendar offline with PKCE and stores the calendar list', async () => {
      const email = 'google-connect@example.com';
      const cookies = await signIn(email);
      const { consentUrl, location } = await connectThroughEmulator(app.server, 'google', { email }, cookies);
      expect(location).toBe('/dashboard?connected=google');
      expect(Object.fromEntries(consentUrl.searchParams)).toMatchObject({
        scope: 'https://www.googleapis.com/auth/calendar',
        access_type: 'offline',
        prompt: 'consent',
        code_challenge_method: 'S256',
        redirect_uri: 'http://localhost:3000/auth/google/calendar/callback',
      });

      const { calendarSettings } = await currentUser(cookies);
      expect(calendarSettings).toMatchObject({
        provider: 'Google Calendar',
        connected: true,
        categories: [],
      });
      expect(calendarSettings.calendars).toContainEqual({
        id: email,
        name: email,
        color: expect.stringMatching(/^#[0-9a-f]{6}$/i),
        timeZone: 'Europe/Berlin',
        primary: true,
        readOnly: false,
      });
      expect(calendarSettings.calendars.filter((entry: { primary: boolean }) => entry.primary)).toHaveLength(
        1,
      );
      // Stored, and only as a v1 AES-GCM ciphertext (decision 007).
      expect((await storedRow((await currentUser(cookies)).id, 'calendar'))?.refreshTokenEncrypted).toMatch(
        /^v1\.dev\./,
      );
    });

    /**
     * The account's calendar shared to read only is listed as such, the only one, and
     * `PATCH /api/calendar/id` refuses it in our words.
     */
    const expectReadOnlyRefused = async (cookies: Cookies, sharedId: string) => {
      const { calendarSettings } = await currentUser(cookies);
      expect(calendarSettings.calendars).toContainEqual(
        expect.objectContaining({ id: sharedId, name: 'Team', readOnly: true }),
      );
      expect(
        calendarSettings.calendars.filter((entry: { readOnly: boolean }) => entry.readOnly),
      ).toHaveLength(1);
      const refused = await app.server.inject({
        method: 'PATCH',
        url: '/api/calendar/id',
        cookies,
        headers: sameOrigin,
        payload: { calendarId: sharedId },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain(
        'You can only read this calendar, so Timeboxer cannot add events to it.',
      );
      expect((await currentUser(cookies)).calendarSettings.calendarId).not.toBe(sharedId);
    };

    it('lists a calendar shared to read only as such, and refuses it as the calendar to sync with', async () => {
      const email = 'google-shared@example.com';
      const cookies = await signIn(email);
      await control(origins.google, 'accounts', { email });
      const shared = await control(origins.google, 'calendars/shared', {
        email,
        summary: 'Team',
        accessRole: 'reader',
      });
      await connect('google', cookies, email);
      await expectReadOnlyRefused(cookies, shared.id);
    });

    it('connects Microsoft 365 with PKCE and stores calendars and categories', async () => {
      const email = 'microsoft-connect@example.com';
      const cookies = await signIn(email);
      const { consentUrl, location } = await connectThroughEmulator(
        app.server,
        'microsoft',
        { email },
        cookies,
      );
      expect(location).toBe('/dashboard?connected=microsoft');
      expect(consentUrl.pathname).toBe('/common/oauth2/v2.0/authorize');
      expect(consentUrl.searchParams.get('scope')).toBe(
        'offline_access User.Read Calendars.ReadWrite MailboxSettings.ReadWrite',
      );
      expect(consentUrl.searchParams.get('code_challenge_method')).toBe('S256');

      const { calendarSettings } = await currentUser(cookies);
      expect(calendarSettings).toMatchObject({ provider: 'Microsoft', connected: true });
      expect(calendarSettings.calendars.length).toBeGreaterThan(0);
      expect(calendarSettings.calendars[0]).toMatchObject({
        id: expect.any(String),
        name: expect.any(String),
      });
      // Graph's isDefaultCalendar marks the main calendar.
      expect(calendarSettings.calendars.filter((entry: { primary: boolean }) => entry.primary)).toHaveLength(
        1,
      );
      expect(calendarSettings.categories).toContainEqual({
        id: expect.any(String),
        displayName: 'Red category',
        color: 'preset0',
      });
    });

    it('lists a Microsoft 365 calendar shared to read only as such, and refuses it as the calendar to sync with', async () => {
      const email = 'microsoft-shared@example.com';
      const cookies = await signIn(email);
      const shared = await control(origins.microsoft, 'calendars/shared', {
        email,
        name: 'Team',
        canEdit: false,
      });
      await connect('microsoft', cookies, email);
      await expectReadOnlyRefused(cookies, shared.id);
    });

    it.each([
      ['todoist', '/auth/todoist'],
      ['google', '/auth/google/calendar'],
      ['microsoft', '/auth/microsoft'],
    ] as const)(
      'sends the signed-in e-mail as login_hint to %s, whose page offers it first',
      async (_, path) => {
        const email = `hinted-${path.split('/')[2]}@example.com`;
        const cookies = await signIn(email);
        const start = await get(path, cookies);
        expect(start.statusCode).toBe(302);
        const consentUrl = new URL(String(start.headers.location));
        expect(consentUrl.searchParams.get('login_hint')).toBe(email);
        const page = await (await fetch(consentUrl)).text();
        expect(page).toMatch(new RegExp(`<input id="email"[^>]*value="${email.replace(/\./g, '\\.')}"`));
      },
    );

    it('stores the tokens encrypted, never in clear', async () => {
      const email = 'encrypted@example.com';
      const cookies = await signIn(email);
      await connect('google', cookies, email);
      const userId = (await currentUser(cookies)).id;
      const row = await storedRow(userId, 'calendar');
      const grant = (await control(origins.google, 'state', undefined, 'GET')).grants.find(
        (entry: { email: string }) => entry.email === email,
      );
      const [accessToken] = grant.accessTokens.map((token: { token: string }) => token.token);
      expect(row?.accessTokenEncrypted).toMatch(/^v1\.dev\./);
      expect(row?.refreshTokenEncrypted).toMatch(/^v1\.dev\./);
      expect(row?.keyId).toBe('dev');
      expect(JSON.stringify(row)).not.toContain(accessToken);
      expect(JSON.stringify(row)).not.toContain(grant.refreshToken);
      expect(await storedAccessToken(userId, 'calendar')).toBe(accessToken);
      expect(JSON.stringify(await currentUser(cookies))).not.toMatch(/ya29\.|token/i);
    });

    it('adds Microsoft 365 beside Google: both listed with their calendars, Google still the sync’s', async () => {
      const email = 'two-accounts@example.com';
      const cookies = await signIn(email);
      await connect('google', cookies, email);
      const chosen = await app.server.inject({
        method: 'PATCH',
        url: '/api/calendar/id',
        cookies,
        headers: sameOrigin,
        payload: { calendarId: email },
      });
      expect(chosen.statusCode).toBe(200);
      const { consentUrl, location } = await connectThroughEmulator(
        app.server,
        'microsoft',
        { email: 'ada.work@example.com', another: true },
        cookies,
      );
      expect(location).toBe('/dashboard?connected=microsoft');
      // Another account: the provider asks which one, the signed-in address not offered first.
      expect(consentUrl.searchParams.get('login_hint')).toBeNull();
      expect(consentUrl.searchParams.get('prompt')).toBe('select_account');
      const { calendarSettings } = await currentUser(cookies);
      expect(calendarSettings).toMatchObject({
        provider: 'Google Calendar',
        connected: true,
        calendarId: email,
      });
      expect(calendarSettings.categories).toEqual([]);
      expect(calendarSettings.accounts).toEqual([
        {
          id: expect.any(String),
          provider: 'google',
          email,
          sync: true,
          needsReconnect: false,
          calendars: expect.arrayContaining([
            { id: email, name: expect.any(String), primary: true, canWrite: true },
          ]),
        },
        {
          id: expect.any(String),
          provider: 'microsoft',
          email: 'ada.work@example.com',
          sync: false,
          needsReconnect: false,
          calendars: expect.arrayContaining([
            { id: expect.any(String), name: 'Calendar', primary: true, canWrite: true },
          ]),
        },
      ]);
      const { grants } = await control(origins.google, 'state', undefined, 'GET');
      expect(grants.filter((grant: { email: string }) => grant.email === email)).toHaveLength(1);

      // The same account again: new tokens, no second entry.
      await connectThroughEmulator(
        app.server,
        'microsoft',
        { email: 'ada.work@example.com', another: true },
        cookies,
      );
      expect((await currentUser(cookies)).calendarSettings.accounts).toHaveLength(2);
    });

    it('adds a second Google account, removes it alone (its grant revoked), and refuses others’ and cross-site removals', async () => {
      const email = 'two-googles@example.com';
      const other = 'two-googles-work@example.com';
      const cookies = await signIn(email);
      await connect('google', cookies, email);
      await connectThroughEmulator(app.server, 'google', { email: other, another: true }, cookies);
      const { accounts } = (await currentUser(cookies)).calendarSettings;
      expect(accounts.map((account: { email: string }) => account.email)).toEqual([email, other]);
      const added = accounts[1].id;
      const remove = (id: string, as: Cookies, headers: Record<string, string> = sameOrigin) =>
        app.server.inject({ method: 'DELETE', url: `/api/calendar/accounts/${id}`, cookies: as, headers });

      expect((await remove(added, cookies, crossSite)).statusCode).toBe(403);
      const stranger = await signIn('two-googles-stranger@example.com');
      expect((await remove(added, stranger)).statusCode).toBe(404);
      expect((await remove('not-an-id', cookies)).statusCode).toBe(400);
      expect((await currentUser(cookies)).calendarSettings.accounts).toHaveLength(2);

      const removed = await remove(added, cookies);
      expect(removed.statusCode).toBe(200);
      expect(removed.json().calendarSettings).toMatchObject({
        provider: 'Google Calendar',
        accounts: [{ email, sync: true }],
      });
      const { grants } = await control(origins.google, 'state', undefined, 'GET');
      expect(grants.filter((grant: { email: string }) => grant.email === other)).toEqual([]);
      expect(grants.filter((grant: { email: string }) => grant.email === email)).toHaveLength(1);
    });

    it('removing the sync’s account makes the added one the sync’s, with no calendar chosen and sync off', async () => {
      const email = 'promote@example.com';
      const cookies = await signIn(email);
      await connect('google', cookies, email);
      await connectThroughEmulator(
        app.server,
        'microsoft',
        { email: 'promote.work@example.com', another: true },
        cookies,
      );
      const [sync] = (await currentUser(cookies)).calendarSettings.accounts;
      const removed = await app.server.inject({
        method: 'DELETE',
        url: `/api/calendar/accounts/${sync.id}`,
        cookies,
        headers: sameOrigin,
      });
      expect(removed.statusCode).toBe(200);
      const { calendarSettings, syncActive } = await currentUser(cookies);
      expect(syncActive).toBe(false);
      expect(calendarSettings).toMatchObject({ provider: 'Microsoft', connected: true, calendarId: null });
      expect(calendarSettings.calendars.length).toBeGreaterThan(0);
      expect(calendarSettings.accounts).toEqual([
        expect.objectContaining({ provider: 'microsoft', email: 'promote.work@example.com', sync: true }),
      ]);
    });

    it('makes an added account the sync’s without removing one: both stay connected, sync off, no calendar chosen', async () => {
      const email = 'switch-account@example.com';
      const work = 'switch-account.work@example.com';
      const cookies = await signIn(email);
      await connect('google', cookies, email);
      const chosen = await app.server.inject({
        method: 'PATCH',
        url: '/api/calendar/id',
        cookies,
        headers: sameOrigin,
        payload: { calendarId: email },
      });
      expect(chosen.statusCode).toBe(200);
      await connectThroughEmulator(app.server, 'microsoft', { email: work, another: true }, cookies);
      const [google, microsoft] = (await currentUser(cookies)).calendarSettings.accounts;
      const useForSync = (id: string, as: Cookies, headers: Record<string, string> = sameOrigin) =>
        app.server.inject({
          method: 'POST',
          url: `/api/calendar/accounts/${id}/sync`,
          cookies: as,
          headers,
          payload: {},
        });

      expect((await useForSync(microsoft.id, cookies, crossSite)).statusCode).toBe(403);
      const stranger = await signIn('switch-account-stranger@example.com');
      expect((await useForSync(microsoft.id, stranger)).statusCode).toBe(404);
      expect((await useForSync('not-an-id', cookies)).statusCode).toBe(400);
      expect((await currentUser(cookies)).calendarSettings).toMatchObject({
        provider: 'Google Calendar',
        calendarId: email,
      });

      const switched = await useForSync(microsoft.id, cookies);
      expect(switched.statusCode).toBe(200);
      const user = switched.json();
      expect(user.syncActive).toBe(false);
      expect(user.calendarSettings).toMatchObject({
        provider: 'Microsoft',
        connected: true,
        calendarId: null,
      });
      expect(user.calendarSettings.calendars).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'Calendar', primary: true })]),
      );
      // Its Outlook categories, never kept for an added account, are read at once for the card.
      expect(user.calendarSettings.categories).toContainEqual(
        expect.objectContaining({ displayName: 'Red category' }),
      );
      expect(user.calendarSettings.accounts).toEqual([
        expect.objectContaining({ id: microsoft.id, provider: 'microsoft', email: work, sync: true }),
        expect.objectContaining({
          id: google.id,
          provider: 'google',
          email,
          sync: false,
          calendars: expect.arrayContaining([expect.objectContaining({ id: email, primary: true })]),
        }),
      ]);
      // Nothing was revoked: both grants are still there.
      const { grants } = await control(origins.google, 'state', undefined, 'GET');
      expect(grants.filter((grant: { email: string }) => grant.email === email)).toHaveLength(1);
      const rows = await app.database.db.select().from(integrations).where(eq(integrations.userId, user.id));
      expect(rows.map((row) => [row.provider, row.position]).sort()).toEqual([
        ['google', 1],
        ['microsoft', 0],
      ]);
      // The new sync account's calendar can be chosen and the sync switched on again.
      const calendarId = user.calendarSettings.calendars.find(
        (entry: { primary: boolean }) => entry.primary,
      ).id;
      const again = await app.server.inject({
        method: 'PATCH',
        url: '/api/calendar/id',
        cookies,
        headers: sameOrigin,
        payload: { calendarId },
      });
      expect(again.statusCode).toBe(200);
    });

    it('an account removed as the sync’s and connected again comes back as an added one; one call makes it the sync’s again', async () => {
      const email = 'reconnect-sync@example.com';
      const work = 'reconnect-sync.work@example.com';
      const cookies = await signIn(email);
      await connect('google', cookies, email);
      await connectThroughEmulator(app.server, 'microsoft', { email: work, another: true }, cookies);
      const [google] = (await currentUser(cookies)).calendarSettings.accounts;
      await app.server.inject({
        method: 'DELETE',
        url: `/api/calendar/accounts/${google.id}`,
        cookies,
        headers: sameOrigin,
      });
      await connect('google', cookies, email);
      const accounts = (await currentUser(cookies)).calendarSettings.accounts;
      // Microsoft 365 took the removed account's place; the Google account connected again is added.
      expect(accounts).toEqual([
        expect.objectContaining({ provider: 'microsoft', email: work, sync: true }),
        expect.objectContaining({ provider: 'google', email, sync: false }),
      ]);
      const fixed = await app.server.inject({
        method: 'POST',
        url: `/api/calendar/accounts/${accounts[1].id}/sync`,
        cookies,
        headers: sameOrigin,
        payload: {},
      });
      expect(fixed.statusCode).toBe(200);
      expect(fixed.json().calendarSettings).toMatchObject({
        provider: 'Google Calendar',
        calendarId: null,
        accounts: [
          { provider: 'google', email, sync: true },
          { provider: 'microsoft', email: work, sync: false },
        ],
      });
      expect(fixed.json().calendarSettings.calendars).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: email })]),
      );
    });

    it('ends on the dashboard with connect_error when the user cancels at the provider', async () => {
      const email = 'cancel@example.com';
      const cookies = await signIn(email);
      for (const provider of ['todoist', 'google', 'microsoft'] as const) {
        const { location } = await connectThroughEmulator(
          app.server,
          provider,
          { email, decision: 'cancel' },
          cookies,
        );
        expect(location).toBe(`/dashboard?connect_error=${provider}`);
      }
      const user = await currentUser(cookies);
      expect(user.todoSettings.connected).toBe(false);
      expect(user.calendarSettings.connected).toBe(false);
    });

    it('needs a signed-in user, the same one who started, and its own flow', async () => {
      const start = await app.server.inject({ url: '/auth/todoist' });
      expect(start.statusCode).toBe(302);
      expect(start.headers.location).toBe('/login');

      const email = 'callback-owner@example.com';
      const cookies = await signIn(email);
      for (const provider of ['todoist', 'google', 'microsoft'] as const) {
        const signedOut = await connectThroughEmulator(app.server, provider, { email }, cookies, {});
        expect(signedOut.location).toBe('/login');
      }
      const other = await signIn('callback-other@example.com');
      const switched = await connectThroughEmulator(app.server, 'google', { email }, cookies, other);
      expect(switched.location).toBe('/dashboard?connect_error=google');

      const forged = await get('/auth/google/calendar/callback?code=x&state=y', cookies);
      expect(forged.headers.location).toBe('/dashboard?connect_error=google');
      expect((await currentUser(cookies)).calendarSettings.connected).toBe(false);
      expect((await currentUser(other)).calendarSettings.connected).toBe(false);
    });
  });

  describe('refreshing what the dashboard shows', () => {
    it('reads a label added in Todoist', async () => {
      const email = 'todoist-refresh@example.com';
      const { api } = await seedTodoist(email, 'teams_business_member');
      const cookies = await signIn(email);
      await connect('todoist', cookies, email);
      await api.addLabel({ name: 'Deep work', color: 'grape' });

      const response = await get('/api/todoist/updateuserprofile', cookies);
      expect(response.statusCode).toBe(200);
      const { todoSettings } = response.json();
      expect(todoSettings.accountType).toBe('Business');
      expect(todoSettings.labels.map((label: { name: string }) => label.name)).toEqual([
        'Focus',
        '30min',
        'Deep work',
      ]);
    });

    it('reads labels and projects whose names hold half of an emoji or a control character', async () => {
      const email = 'todoist-broken-names@example.com';
      const { api } = await seedTodoist(email, 'teams_business_member');
      const cookies = await signIn(email);
      await connect('todoist', cookies, email);
      await api.addLabel({ name: 'Broken \ud800 label', color: 'grape' });
      await api.addProject({ name: 'Shared \ud800 project\u0007' });

      const response = await get('/api/todoist/updateuserprofile', cookies);
      expect(response.statusCode).toBe(200);
      const { todoSettings } = response.json();
      expect(todoSettings.labels.map((label: { name: string }) => label.name)).toContain(
        'Broken \ufffd label',
      );
      expect(JSON.stringify(todoSettings)).toContain('Shared \ufffd project ');
      expect((await get('/api/todoist/updateuserprofile', cookies)).statusCode).toBe(200);
    });

    it.each([
      ['google', 'oauth/expire-access-tokens'],
      ['microsoft', 'tokens/expire'],
    ] as const)('refreshes the %s access token after the provider expired it', async (provider, expire) => {
      const email = `${provider}-expired@example.com`;
      const cookies = await signIn(email);
      await connect(provider, cookies, email);
      const userId = (await currentUser(cookies)).id;
      const before = await storedAccessToken(userId, 'calendar');
      await control(origins[provider], expire, { email });

      const response = await get('/api/calendar/updateuserprofile', cookies);
      expect(response.statusCode).toBe(200);
      expect(response.json().calendarSettings).toMatchObject({ connected: true, needsReconnect: false });
      expect(response.json().calendarSettings.calendars.length).toBeGreaterThan(0);
      expect(await storedAccessToken(userId, 'calendar')).not.toBe(before);
    });

    it.each(['todoist', 'google', 'microsoft'] as const)(
      'shows %s as needing a reconnect when the grant was revoked at the provider',
      async (provider) => {
        const email = `${provider}-revoked-outside@example.com`;
        const cookies = await signIn(email);
        await connect(provider, cookies, email);
        const userId = (await currentUser(cookies)).id;
        const kind = provider === 'todoist' ? 'todoist' : 'calendar';
        const token = await storedAccessToken(userId, kind);
        if (provider === 'todoist') {
          const { clientId, clientSecret } = app.emulators?.todoist ?? { clientId: '', clientSecret: '' };
          await revokeToken({ clientId, clientSecret, token }, { baseUrl: origins.todoist });
        } else if (provider === 'google') {
          expect((await fetch(`${origins.google}/revoke?token=${token}`, { method: 'POST' })).ok).toBe(true);
        } else {
          await control(origins.microsoft, 'refresh-tokens/revoke', { email });
          await control(origins.microsoft, 'tokens/expire', { email });
        }

        const path =
          provider === 'todoist' ? '/api/todoist/updateuserprofile' : '/api/calendar/updateuserprofile';
        const response = await get(path, cookies);
        expect(response.statusCode).toBe(200);
        const settings =
          provider === 'todoist' ? response.json().todoSettings : response.json().calendarSettings;
        expect(settings).toMatchObject({ connected: true, needsReconnect: true });
        // Until the user connects again, nothing more is asked of the provider.
        expect((await get(path, cookies)).statusCode).toBe(200);

        await connect(provider, cookies, email);
        const again = await currentUser(cookies);
        expect((provider === 'todoist' ? again.todoSettings : again.calendarSettings).needsReconnect).toBe(
          false,
        );
      },
    );

    it('returns the user unchanged without a connection, and 401 when signed out', async () => {
      const cookies = await signIn('nothing-connected@example.com');
      for (const path of ['/api/todoist/updateuserprofile', '/api/calendar/updateuserprofile']) {
        const response = await get(path, cookies);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual(await currentUser(cookies));
        expect((await get(path, {})).statusCode).toBe(401);
        // A cross-site navigation (a link on another site) does not make us store anything.
        expect((await get(path, cookies, crossSite)).statusCode).toBe(403);
      }
    });
  });

  describe('Todoist labels', () => {
    const labelsIn = async (api: TodoistApi) => (await api.getLabels()).results;
    const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, cookies: Cookies, payload?: object) =>
      app.server.inject({ method, url, cookies, headers: sameOrigin, ...(payload && { payload }) });

    it('creates (colour 38 is teal), recolours and deletes labels in Todoist', async () => {
      const email = 'labels@example.com';
      const { api } = await seedTodoist(email);
      const cookies = await signIn(email);
      await connect('todoist', cookies, email);

      const created = await send('POST', '/api/todoist/label', cookies, { label: ' 45min ', color: 38 });
      expect(created.statusCode).toBe(200);
      const label = (await labelsIn(api)).find((entry) => entry.name === '45min');
      expect(label?.color).toBe('teal');
      expect(created.json().todoSettings.labels).toContainEqual({
        id: label?.id,
        name: '45min',
        color: 'teal',
        item_order: label?.order,
      });

      const recoloured = await send('PATCH', '/api/todoist/label', cookies, {
        labelId: label?.id,
        color: 'grape',
      });
      expect(recoloured.statusCode).toBe(200);
      expect((await labelsIn(api)).find((entry) => entry.id === label?.id)?.color).toBe('grape');
      expect(
        recoloured.json().todoSettings.labels.find((entry: { id: string }) => entry.id === label?.id).color,
      ).toBe('grape');

      const deleted = await send('DELETE', `/api/todoist/label/${label?.id}`, cookies);
      expect(deleted.statusCode).toBe(200);
      expect((await labelsIn(api)).map((entry) => entry.name)).toEqual(['Focus', '30min']);
      expect(deleted.json().todoSettings.labels).toHaveLength(2);

      // A label that Todoist has but our list did not yet: creating it just brings the list up to date.
      await api.addLabel({ name: 'Late', color: 'red' });
      const existing = await send('POST', '/api/todoist/label', cookies, { label: 'Late', color: 'red' });
      expect(existing.statusCode).toBe(200);
      expect(existing.json().todoSettings.labels.map((entry: { name: string }) => entry.name)).toContain(
        'Late',
      );
    });

    it('answers bad input with 400 naming the field, and changes nothing', async () => {
      const email = 'labels-bad@example.com';
      const { api } = await seedTodoist(email);
      const cookies = await signIn(email);
      await connect('todoist', cookies, email);
      const cases: [object, string][] = [
        [{ label: '', color: 'red' }, 'label'],
        [{ label: 'x'.repeat(61), color: 'red' }, 'label'],
        [{ label: 'ok', color: 'pink' }, 'color'],
        [{ label: 'ok', color: 12 }, 'color'],
      ];
      for (const [payload, field] of cases) {
        const response = await send('POST', '/api/todoist/label', cookies, payload);
        expect(response.statusCode).toBe(400);
        expect(response.json().issues[0].field).toBe(field);
      }
      const patch = await send('PATCH', '/api/todoist/label', cookies, { labelId: '', color: 'red' });
      expect(patch.statusCode).toBe(400);
      expect(patch.json().issues[0].field).toBe('labelId');
      expect(await labelsIn(api)).toHaveLength(2);
    });

    it("refuses another user's label id, and a user without Todoist", async () => {
      const owner = 'labels-owner@example.com';
      const { api } = await seedTodoist(owner);
      const ownerCookies = await signIn(owner);
      await connect('todoist', ownerCookies, owner);
      const [focus] = await labelsIn(api);

      const intruder = 'labels-intruder@example.com';
      await seedTodoist(intruder);
      const intruderCookies = await signIn(intruder);
      await connect('todoist', intruderCookies, intruder);
      const patch = await send('PATCH', '/api/todoist/label', intruderCookies, {
        labelId: focus?.id,
        color: 'grape',
      });
      expect(patch.statusCode).toBe(409);
      const remove = await send('DELETE', `/api/todoist/label/${focus?.id}`, intruderCookies);
      expect(remove.statusCode).toBe(409);
      expect((await labelsIn(api)).find((label) => label.id === focus?.id)?.color).toBe('red');

      const unconnected = await signIn('labels-none@example.com');
      const create = await send('POST', '/api/todoist/label', unconnected, { label: 'x', color: 'red' });
      expect(create.statusCode).toBe(409);
      expect(create.json().message).toMatch(/connect Todoist/);
    });

    it('refuses cross-site label changes', async () => {
      const cookies = await signIn('labels-csrf@example.com');
      const response = await app.server.inject({
        method: 'POST',
        url: '/api/todoist/label',
        cookies,
        headers: crossSite,
        payload: { label: 'x', color: 'red' },
      });
      expect(response.statusCode).toBe(403);
    });
  });

  describe('removing', () => {
    it('revokes each grant at the provider, deletes the tokens, keeps the settings and stops sync', async () => {
      const email = 'revoke@example.com';
      await seedTodoist(email);
      const cookies = await signIn(email);
      await connect('todoist', cookies, email);
      await connect('google', cookies, email);
      const userId = (await currentUser(cookies)).id;
      const todoistToken = await storedAccessToken(userId, 'todoist');

      const todoist = await get('/auth/todoist/revoke', cookies);
      expect(todoist.statusCode).toBe(200);
      expect(todoist.json()).toMatchObject({
        syncActive: false,
        todoSettings: { connected: false, provider: null, accountType: 'Premium' },
      });
      expect(todoist.json().todoSettings.labels).toHaveLength(2);
      const { tokens } = await control(origins.todoist, 'state', undefined, 'GET');
      expect(tokens.map((entry: { token: string }) => entry.token)).not.toContain(todoistToken);
      expect(await storedRow(userId, 'todoist')).toBeUndefined();

      // Not connected to Microsoft: revoking it leaves the Google connection alone.
      expect((await get('/auth/microsoft/revoke', cookies)).json().calendarSettings.connected).toBe(true);
      const google = await get('/auth/google/calendar/revoke', cookies);
      expect(google.statusCode).toBe(200);
      expect(google.json().calendarSettings).toMatchObject({ connected: false, provider: null });
      expect(google.json().calendarSettings.calendars.length).toBeGreaterThan(0);
      const { grants } = await control(origins.google, 'state', undefined, 'GET');
      expect(grants.filter((grant: { email: string }) => grant.email === email)).toEqual([]);

      await connect('microsoft', cookies, email);
      const microsoft = await get('/auth/microsoft/revoke', cookies);
      expect(microsoft.json().calendarSettings.connected).toBe(false);
      expect(await storedRow(userId, 'calendar')).toBeUndefined();
    });

    it('deletes the local tokens even when revoking at the provider fails', async () => {
      const email = 'revoke-down@example.com';
      const cookies = await signIn(email);
      await connect('google', cookies, email);
      // A 4xx, so that google-auth-library does not spend seconds retrying.
      await control(origins.google, 'faults', {
        kind: 'status',
        status: 400,
        path: '/revoke',
        body: { error: 'invalid_request' },
      });
      try {
        const response = await get('/auth/google/calendar/revoke', cookies);
        expect(response.statusCode).toBe(200);
        expect(response.json().calendarSettings.connected).toBe(false);
        expect(await storedRow((await currentUser(cookies)).id, 'calendar')).toBeUndefined();
      } finally {
        await control(origins.google, 'faults', undefined, 'DELETE');
      }
      const { grants } = await control(origins.google, 'state', undefined, 'GET');
      expect(grants.filter((grant: { email: string }) => grant.email === email)).toHaveLength(1);
    });

    it('refuses a cross-site revoke, and a signed-out one', async () => {
      const email = 'revoke-csrf@example.com';
      const cookies = await signIn(email);
      await connect('google', cookies, email);
      for (const path of ['/auth/todoist/revoke', '/auth/google/calendar/revoke', '/auth/microsoft/revoke']) {
        expect((await get(path, cookies, crossSite)).statusCode).toBe(403);
        expect((await get(path, cookies, {})).statusCode).toBe(403);
        expect((await get(path, {})).statusCode).toBe(401);
      }
      expect((await currentUser(cookies)).calendarSettings.connected).toBe(true);
    });

    it('revokes the grants of every calendar account when the account is deleted, and deletes every row', async () => {
      const email = 'delete-me@example.com';
      const cookies = await signIn(email);
      const userId = (await currentUser(cookies)).id;
      await connect('google', cookies, email);
      await connectThroughEmulator(
        app.server,
        'google',
        { email: 'delete-me-too@example.com', another: true },
        cookies,
      );
      const deleted = await get('/api/delete/user', cookies);
      expect(deleted.statusCode).toBe(302);
      const { grants } = await control(origins.google, 'state', undefined, 'GET');
      expect(
        grants.filter((grant: { email: string }) =>
          [email, 'delete-me-too@example.com'].includes(grant.email),
        ),
      ).toEqual([]);
      expect(
        await app.database.db.select().from(integrations).where(eq(integrations.userId, userId)),
      ).toEqual([]);
    });
  });
});

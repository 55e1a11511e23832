import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '#server/app.ts';
import { signInThroughEmulator } from '#server/test/sign-in.ts';
import { createTestApp, crossSite, sameOrigin } from '#server/test/test-app.ts';

describe('user routes', () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const signIn = async (email: string) => {
    const result = await signInThroughEmulator(app.server, 'google', { email, name: 'Test Person' });
    return { sid: result.sessionCookie?.value ?? '' };
  };
  const currentUser = (cookies: Record<string, string>) =>
    app.server.inject({ url: '/api/current_user', cookies });

  it('GET /api/current_user answers an empty body when signed out', async () => {
    const response = await currentUser({});
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('GET /api/current_user treats an unknown session id as signed out', async () => {
    expect((await currentUser({ sid: 'made-up-session-id' })).body).toBe('');
  });

  it('GET /api/logout ends the session and goes home', async () => {
    const cookies = await signIn('logout@example.com');
    const response = await app.server.inject({ url: '/api/logout', cookies, headers: sameOrigin });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
    const cleared = response.cookies.find((cookie) => cookie.name === 'sid');
    expect(cleared?.value).toBe('');
    expect((await currentUser(cookies)).body).toBe('');
  });

  it('GET /api/logout refuses a cross-site request and keeps the session', async () => {
    const cookies = await signIn('logout-csrf@example.com');
    const response = await app.server.inject({ url: '/api/logout', cookies, headers: crossSite });
    expect(response.statusCode).toBe(403);
    expect((await currentUser(cookies)).json().email).toBe('logout-csrf@example.com');
  });

  it('GET /api/delete/user deletes every row of the user, signs out, and leaves others alone', async () => {
    const mine = await signIn('delete-me@example.com');
    const theirs = await signIn('keep-me@example.com');
    const myId = (await currentUser(mine)).json().id;

    const response = await app.server.inject({ url: '/api/delete/user', cookies: mine, headers: sameOrigin });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
    expect((await currentUser(mine)).body).toBe('');
    expect((await currentUser(theirs)).json().email).toBe('keep-me@example.com');

    const rows = await app.database.db.execute(`select
      (select count(*)::int from users where id = '${myId}') as users,
      (select count(*)::int from sessions where user_id = '${myId}') as sessions`);
    expect((rows as unknown as { rows: unknown[] }).rows[0]).toEqual({ users: 0, sessions: 0 });

    const again = await signIn('delete-me@example.com');
    const fresh = (await currentUser(again)).json();
    expect(fresh.id).not.toBe(myId);
    expect(fresh.payment.subscriptionStatus).toBe('trial');
  });

  it('GET /api/delete/user signs the user out of every other browser too, at once', async () => {
    const here = await signIn('two-browsers@example.com');
    const elsewhere = await signIn('two-browsers@example.com');
    const setting = (cookies: Record<string, string>) =>
      app.server.inject({
        method: 'PATCH',
        url: '/api/settings/oncomplete',
        cookies,
        headers: sameOrigin,
        payload: { setting: 'checkmark' },
      });
    expect((await setting(elsewhere)).statusCode).toBe(200);

    await app.server.inject({ url: '/api/delete/user', cookies: here, headers: sameOrigin });
    // The other browser's session went with the user's rows: it is signed out, not a user with no rows.
    expect((await setting(elsewhere)).statusCode).toBe(401);
    expect((await currentUser(elsewhere)).body).toBe('');
  });

  it('GET /api/delete/user refuses a cross-site or direct navigation', async () => {
    const cookies = await signIn('delete-csrf@example.com');
    for (const headers of [crossSite, { 'sec-fetch-site': 'none' }, {}]) {
      const response = await app.server.inject({ url: '/api/delete/user', cookies, headers });
      expect(response.statusCode).toBe(403);
    }
    expect((await currentUser(cookies)).json().email).toBe('delete-csrf@example.com');
  });

  it('GET /api/delete/user when signed out just goes home', async () => {
    const response = await app.server.inject({ url: '/api/delete/user', headers: sameOrigin });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
  });
});

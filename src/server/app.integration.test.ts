import { describe, expect, it } from 'vitest';
import { testDatabases } from './test/databases.ts';
import { signInThroughEmulator } from './test/sign-in.ts';
import { setUpTestApp } from './test/suite-setup.ts';
import { sameOrigin } from './test/test-app.ts';

const databases = await testDatabases('the app');

describe.each(databases)('the app on $name', (testDb) => {
  const app = setUpTestApp(testDb);

  it.skipIf(!testDb.enabled)('is ready once its migrations are applied', async () => {
    const response = await app().server.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json().database).toBe(testDb.name === 'PGlite' ? 'pglite' : 'postgres');
  });

  it.skipIf(!testDb.enabled)('signs in, reads the user, and deletes the account', async () => {
    const { sessionCookie } = await signInThroughEmulator(app().server, 'facebook', {
      email: 'both-databases@example.com',
      name: 'Dorothy Vaughan',
    });
    const cookies = { sid: sessionCookie?.value ?? '' };
    const user = (await app().server.inject({ url: '/api/current_user', cookies })).json();
    expect(user).toMatchObject({ email: 'both-databases@example.com', name: { firstName: 'Dorothy' } });

    await app().server.inject({ url: '/api/delete/user', cookies, headers: sameOrigin });
    expect((await app().server.inject({ url: '/api/current_user', cookies })).body).toBe('');
  });
});

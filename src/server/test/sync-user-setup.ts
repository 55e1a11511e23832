import type { App } from '#server/app.ts';
import { connectThroughEmulator, signInThroughEmulator } from './sign-in.ts';

/**
 * Setting up a user who syncs, as a person would, through the app and the emulators: shared by the sync
 * tests (`sync-fixtures.ts`) and the benchmark, so both start from the same user. No test runner here.
 */

/** Calls an emulator's control route (`GET` without a body). */
// biome-ignore lint/suspicious/noExplicitAny: each control route answers its own JSON
export async function emulatorControl(origin: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${origin}/_emulator/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** A Todoist account in Berlin time with the labels 30min (blue) and 1h (red), and `tasks` when given. */
export async function seedTodoistUser(
  origin: string,
  email: string,
  tasks?: object[],
): Promise<{ accessToken: string; tasks: { id: string }[] }> {
  const seeded = await emulatorControl(origin, 'seed', {
    users: [
      {
        email,
        timezone: 'Europe/Berlin',
        labels: [
          { name: '30min', color: 'blue' },
          { name: '1h', color: 'red' },
        ],
        ...(tasks && { tasks }),
      },
    ],
  });
  const account = seeded.users[0];
  if (!account) throw new Error('the Todoist emulator seeded no user');
  return account;
}

/** Signs `email` in with Google, then connects their Todoist and their calendar; the session cookies. */
export async function signInAndConnect(
  app: App,
  identity: { email: string; name: string },
  calendar: 'google' | 'microsoft',
): Promise<{ sid: string }> {
  const { email } = identity;
  const { sessionCookie } = await signInThroughEmulator(app.server, 'google', identity);
  if (!sessionCookie?.value) throw new Error(`${email} could not sign in`);
  const cookies = { sid: sessionCookie.value };
  await connectThroughEmulator(app.server, 'todoist', { email }, cookies);
  await connectThroughEmulator(app.server, calendar, { email }, cookies);
  return cookies;
}

/** Sends a request of the signed-in user to the app and answers its JSON; fails unless it answers 200. */
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
// biome-ignore lint/suspicious/noExplicitAny: each route answers its own JSON
export type Send = (method: Method, url: string, payload?: object) => Promise<any>;

/** The 30- and 60-minute timeboxes, on the labels `seedTodoistUser` makes. */
export async function addTimeboxes(send: Send): Promise<void> {
  await send('POST', '/api/timeboxsettings', { label: '30min', duration: 30 });
  await send('POST', '/api/timeboxsettings', { label: '1h', duration: 60 });
}

/**
 * A user's own Graph client: a request with an optional JSON body (a path under `/v1.0`, or a whole
 * `@odata.nextLink`), answered in UTC and text bodies; its JSON (null for 204), or an error unless it
 * succeeds.
 */
export function graphClient(graphBaseUrl: string, token: string) {
  // biome-ignore lint/suspicious/noExplicitAny: each Graph route answers its own JSON
  return async (method: string, path: string, body?: unknown): Promise<any> => {
    const response = await fetch(path.startsWith('https://') ? path : `${graphBaseUrl}/v1.0${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        prefer: 'outlook.timezone="UTC", outlook.body-content-type="text"',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`);
    return response.status === 204 ? null : response.json();
  };
}

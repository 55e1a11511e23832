import type { AddressInfo } from 'node:net';
import { calendar, type calendar_v3 } from '@googleapis/calendar';
import type { FastifyInstance } from 'fastify';
import { CodeChallengeMethod, OAuth2Client } from 'google-auth-library';
import { beforeEach } from 'vitest';
import { submitForm } from '../shared/testing/html-form.ts';
import { setUpEmulator } from '../shared/testing/set-up-emulator.ts';
import { type ReceivedHeaders, setUpReceiver } from '../shared/testing/set-up-receiver.ts';
import {
  createGoogleCalendarEmulator,
  type GoogleCalendarEmulatorOptions,
} from './google-calendar.emulator.ts';

/** Test support: an emulator on an ephemeral port, and SDK clients signed in through its consent page. */
export const CLIENT = {
  clientId: 'test-calendar-client',
  clientSecret: 'test-calendar-secret',
  name: 'Timeboxer',
};
export const REDIRECT_URI = 'http://localhost:3000/integrations/google/callback';
export const CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar';

export type Harness = { app: FastifyInstance; origin: string; close(): Promise<void> };

export async function startHarness(
  options: Partial<Omit<GoogleCalendarEmulatorOptions, 'getOrigin'>> = {},
): Promise<Harness> {
  let origin = '';
  const app = await createGoogleCalendarEmulator({
    clients: [CLIENT],
    notificationRetryBaseDelayMs: 5,
    ...options,
    getOrigin: () => origin,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { app, origin, close: () => app.close() };
}

export function oauthClient(origin: string, options: { forceRefreshOnFailure?: boolean } = {}): OAuth2Client {
  return new OAuth2Client({
    clientId: CLIENT.clientId,
    clientSecret: CLIENT.clientSecret,
    redirectUri: REDIRECT_URI,
    endpoints: {
      oauth2AuthBaseUrl: `${origin}/o/oauth2/v2/auth`,
      oauth2TokenUrl: `${origin}/token`,
      oauth2RevokeUrl: `${origin}/revoke`,
      tokenInfoUrl: `${origin}/tokeninfo`,
    },
    ...options,
  });
}

export type ConsentOptions = {
  email?: string;
  name?: string;
  decision?: 'continue' | 'cancel';
  scope?: string[];
  offline?: boolean;
  /** `prompt` of the authorization URL; default `consent` when offline. */
  prompt?: string;
};

/** The browser part of the consent: authorization URL, page, form POST; returns the redirect. */
export async function consent(client: OAuth2Client, options: ConsentOptions = {}) {
  const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync();
  const url = client.generateAuthUrl({
    scope: options.scope ?? [CALENDAR_SCOPE],
    state: 'state-123',
    code_challenge: codeChallenge,
    code_challenge_method: CodeChallengeMethod.S256,
    ...(options.offline === false ? {} : { access_type: 'offline', prompt: options.prompt ?? 'consent' }),
  });
  const page = await fetch(url);
  const html = await page.text();
  const response = await submitForm(url, html, {
    email: options.email ?? 'ada.lovelace@example.com',
    name: options.name ?? 'Ada Lovelace',
    decision: options.decision ?? 'continue',
  });
  const location = new URL(response.headers.get('location') ?? '', REDIRECT_URI);
  return { page, html, status: response.status, location, codeVerifier };
}

/** Consent plus code exchange: an OAuth2Client holding tokens, and the Calendar SDK on top of it. */
export async function signIn(
  origin: string,
  options: ConsentOptions & { forceRefreshOnFailure?: boolean } = {},
) {
  const client = oauthClient(origin, { forceRefreshOnFailure: options.forceRefreshOnFailure });
  const { location, codeVerifier } = await consent(client, options);
  const { tokens } = await client.getToken({ code: location.searchParams.get('code') ?? '', codeVerifier });
  client.setCredentials(tokens);
  const api: calendar_v3.Calendar = calendar({ version: 'v3', auth: client, rootUrl: `${origin}/` });
  return { client, api, tokens };
}

/** The emulator of a file's tests and Ada's Calendar SDK client, signed in for the current test. */
export type SignedInCalendar = {
  readonly app: FastifyInstance;
  readonly origin: string;
  readonly api: calendar_v3.Calendar;
};

/**
 * The emulator for a file's tests (`setUpEmulator`: started with `options`, reset before each test,
 * closed), with Ada signed in anew after each reset. The answer reads the running emulator and her
 * Calendar SDK client; they exist from the first `beforeEach` on.
 */
export function setUpSignedInCalendar(options: Parameters<typeof startHarness>[0] = {}): SignedInCalendar {
  let harness: Harness | undefined;
  let api: calendar_v3.Calendar | undefined;
  setUpEmulator(
    () => startHarness(options),
    (started) => {
      harness = started;
    },
  );
  beforeEach(async () => {
    api = (await signIn(setUp(harness).origin)).api;
  });
  return {
    get app() {
      return setUp(harness).app;
    },
    get origin() {
      return setUp(harness).origin;
    },
    get api() {
      return setUp(api);
    },
  };
}

function setUp<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('set up in beforeAll and beforeEach: read it inside a test');
  return value;
}

/** Reads the error an SDK call failed with. */
export async function failure(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    const e = error as { status?: number; response?: { status: number; data: unknown; headers: Headers } };
    const data = e.response?.data as
      | {
          error: {
            code: number;
            message: string;
            status?: string;
            errors: { reason: string; domain: string }[];
          };
        }
      | undefined;
    return { status: e.response?.status ?? e.status, body: data, headers: e.response?.headers, error };
  }
  throw new Error('Expected the call to fail');
}

export const control = (origin: string, path: string, body?: unknown, method = 'POST') =>
  fetch(`${origin}/_emulator/${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });

/** The one-hour event tests insert unless they need another. */
export const EVENT: calendar_v3.Schema$Event = {
  summary: 'Write report',
  start: { dateTime: '2030-05-10T09:00:00Z' },
  end: { dateTime: '2030-05-10T10:00:00Z' },
};

/**
 * A receiver of the emulator's push notifications for the whole file: `address()` is the URL to
 * watch with; every push's headers and body are handed to `onPush`, which may answer a status to fail
 * it with (200 otherwise).
 */
export function setUpPushReceiver(onPush: (headers: ReceivedHeaders, body: string) => number | undefined) {
  return setUpReceiver('/google/push', (body, headers) => onPush(headers, body));
}

import type { FastifyInstance } from 'fastify';
import { parseForm } from '#emulators/shared/testing/html-form.ts';
import { CONNECT_ANOTHER_QUERY, CONNECT_PATHS, type IntegrationKey } from '#shared/api/auth.schema.ts';

type Cookies = Record<string, string>;

export type SignInResult = { location: string; sessionCookie: { name: string; value: string } | undefined };

/** Reads the fields and action of an emulator's sign-in form, as a browser would submit it. */
export async function readSignInForm(pageUrl: string): Promise<{ action: URL; fields: URLSearchParams }> {
  const page = await fetch(pageUrl);
  if (!page.ok) throw new Error(`sign-in page answered ${page.status}`);
  const { action, fields } = parseForm(await page.text());
  return { action: new URL(action, pageUrl), fields: new URLSearchParams(fields) };
}

/**
 * Runs the whole sign-in through the app and an emulator: our redirect, the provider's page submitted
 * with the given identity, and our callback. Returns where the app sent the browser afterwards.
 */
export async function signInThroughEmulator(
  server: FastifyInstance,
  provider: 'google' | 'facebook',
  identity: { email: string; name: string; decision?: 'continue' | 'cancel' },
  cookies: Cookies = {},
): Promise<SignInResult> {
  const start = await server.inject({ url: `/auth/${provider}`, cookies });
  if (start.statusCode !== 302) throw new Error(`/auth/${provider} answered ${start.statusCode}`);
  const flowCookie = start.cookies.find((cookie) => cookie.name === 'signin');
  const { action, fields } = await readSignInForm(String(start.headers.location));
  fields.set('email', identity.email);
  fields.set('name', identity.name);
  fields.set('decision', identity.decision ?? 'continue');
  const submitted = await fetch(action, { method: 'POST', body: fields, redirect: 'manual' });
  const callback = new URL(submitted.headers.get('location') ?? '');
  const done = await server.inject({
    url: `${callback.pathname}${callback.search}`,
    cookies: { ...cookies, ...(flowCookie && { signin: flowCookie.value }) },
  });
  const session = done.cookies.find((cookie) => cookie.name === 'sid');
  return {
    location: String(done.headers.location),
    sessionCookie: session?.value ? { name: session.name, value: session.value } : undefined,
  };
}

export type ConnectProvider = IntegrationKey;

/**
 * Connects a provider account for a signed-in user through the app and an emulator: our redirect, the
 * provider's consent page submitted with the given account, and our callback (with `callbackCookies`
 * instead of the user's cookies when given, e.g. none). Returns where the app sent the browser.
 */
export async function connectThroughEmulator(
  server: FastifyInstance,
  provider: ConnectProvider,
  account: { email: string; name?: string; decision?: 'continue' | 'cancel'; another?: boolean },
  cookies: Cookies,
  callbackCookies?: Cookies,
): Promise<{ location: string; consentUrl: URL }> {
  const start = await server.inject({
    url: `${CONNECT_PATHS[provider]}${account.another ? `?${CONNECT_ANOTHER_QUERY}=1` : ''}`,
    cookies,
  });
  if (start.statusCode !== 302) throw new Error(`${CONNECT_PATHS[provider]} answered ${start.statusCode}`);
  const consentUrl = new URL(String(start.headers.location));
  const flowCookie = start.cookies.find((cookie) => cookie.name === 'connect');
  if (!flowCookie) return { location: consentUrl.toString(), consentUrl };
  const { action, fields } = await readSignInForm(consentUrl.toString());
  fields.set('email', account.email);
  fields.set('name', account.name ?? 'Ada Lovelace');
  fields.set('decision', account.decision ?? 'continue');
  const submitted = await fetch(action, { method: 'POST', body: fields, redirect: 'manual' });
  const callback = new URL(submitted.headers.get('location') ?? '');
  const done = await server.inject({
    url: `${callback.pathname}${callback.search}`,
    cookies: { ...(callbackCookies ?? cookies), connect: flowCookie.value },
  });
  return { location: String(done.headers.location), consentUrl };
}

/**
 * Connects the calendar account `email` of `provider` beside the ones connected (the card's "Add …
 * account"), or one of them again, through the emulator's consent page; fails unless the app sends the
 * browser back to the dashboard as connected.
 */
export async function addCalendarAccount(
  server: FastifyInstance,
  provider: 'google' | 'microsoft',
  email: string,
  cookies: Cookies,
): Promise<void> {
  const { location } = await connectThroughEmulator(server, provider, { email, another: true }, cookies);
  if (location !== `/dashboard?connected=${provider}`) {
    throw new Error(`connecting ${email} (${provider}) ended at ${location}`);
  }
}

/** Test support for the Microsoft emulator: start it over HTTPS, sign in, build SDK clients, receive webhooks. */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type GraphError } from '@microsoft/microsoft-graph-client';
import Fastify, { type FastifyInstance } from 'fastify';
import { fillInAccountForm } from '../shared/testing/html-form.ts';
import { ensureLocalCertificate, type LocalCertificate, trustCertificate } from './microsoft.certificate.ts';
import { createMicrosoftEmulator, type MicrosoftEmulatorOptions } from './microsoft.emulator.ts';

export const CLIENT = {
  clientId: '6731de76-14a6-49ae-97bc-6eba6914391e',
  clientSecret: 'test-microsoft-secret',
  name: 'Timeboxer (test)',
  redirectUris: ['http://localhost:3000/auth/microsoft/callback'],
};
export const REDIRECT_URI = 'http://localhost:3000/auth/microsoft/callback';
export const APP_SCOPE = 'offline_access User.Read Calendars.ReadWrite MailboxSettings.ReadWrite';

export type RunningEmulator = {
  app: FastifyInstance;
  origin: string;
  certificate: LocalCertificate;
  close(): Promise<void>;
};

/** Starts the emulator on an ephemeral port with a certificate in a temp dir, trusted by this process. */
export async function startMicrosoftEmulator(
  overrides: Partial<Omit<MicrosoftEmulatorOptions, 'getOrigin'>> = {},
): Promise<RunningEmulator> {
  const dir = await mkdtemp(join(tmpdir(), 'microsoft-emulator-'));
  const certificate = await ensureLocalCertificate(dir);
  trustCertificate(certificate.caPem);
  let origin = '';
  const app = await createMicrosoftEmulator({
    clients: [CLIENT],
    tls: certificate,
    getOrigin: () => origin,
    validationTimeoutMs: 1000,
    notifications: { retries: 2, retryBaseDelayMs: 20, timeoutMs: 1000 },
    ...overrides,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  origin = `https://localhost:${(app.server.address() as AddressInfo).port}`;
  return {
    app,
    origin,
    certificate,
    close: async () => {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export type SignInOptions = {
  email?: string;
  name?: string;
  scope?: string;
  tenant?: string;
  decision?: 'continue' | 'cancel';
  params?: Record<string, string>;
};

/** Opens the consent page with PKCE S256 and submits it like a browser; returns the redirect. */
export async function signIn(origin: string, options: SignInOptions = {}) {
  const codeVerifier = randomBytes(32).toString('base64url');
  const url = new URL(`${origin}/${options.tenant ?? 'common'}/oauth2/v2.0/authorize`);
  url.search = new URLSearchParams({
    client_id: CLIENT.clientId,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    response_mode: 'query',
    scope: options.scope ?? APP_SCOPE,
    state: 'state-123',
    code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...options.params,
  }).toString();
  const { page, html, response } = await fillInAccountForm(url, options, {
    email: 'ada.lovelace@example.com',
    name: 'Ada Lovelace',
  });
  const location = new URL(response.headers.get('location') ?? 'http://invalid/');
  return { page, html, response, location, code: location.searchParams.get('code') ?? '', codeVerifier };
}

export async function tokenRequest(origin: string, params: Record<string, string>, tenant = 'common') {
  const response = await fetch(`${origin}/${tenant}/oauth2/v2.0/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret, ...params }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export type Tokens = { access_token: string; refresh_token: string; scope: string; expires_in: number };

/** The whole authorization code flow for `email`. */
export async function tokensFor(origin: string, email = 'ada.lovelace@example.com', scope = APP_SCOPE) {
  const { code, codeVerifier } = await signIn(origin, { email, scope });
  const { status, body } = await tokenRequest(origin, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: codeVerifier,
    scope,
  });
  if (status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(body)}`);
  return body as unknown as Tokens;
}

/** POSTs a JSON body to one of the emulator's control routes (`/_emulator/…`). */
export const control = (origin: string, path: string, body: unknown = {}) =>
  fetch(`${origin}/_emulator/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Ada's Graph client, with tokens minted for the app's scopes, and the id of her Timeboxer calendar. */
export async function timeboxerCalendar(origin: string): Promise<{ client: Client; calendarId: string }> {
  const client = graphClient(origin, (await tokensFor(origin)).access_token);
  const calendars = await client.api('/me/calendars').get();
  return { client, calendarId: calendars.value.find((c: { name: string }) => c.name === 'Timeboxer').id };
}

/** The official SDK pointed at the emulator, as the product will configure it. */
export function graphClient(origin: string, accessToken: string | (() => string)): Client {
  const token = typeof accessToken === 'string' ? () => accessToken : accessToken;
  return Client.initWithMiddleware({
    authProvider: { getAccessToken: async () => token() },
    baseUrl: origin,
    customHosts: new Set(['localhost']),
  });
}

export type Received = {
  url: string;
  query: Record<string, string>;
  headers: Record<string, unknown>;
  body: string;
};

export type ReceiverMode = 'echo' | 'no-echo' | 'wrong-token' | 'slow' | 'fail';

/** A local webhook endpoint (plain http, like the app in the sandbox) that records what it gets. */
export async function startReceiver() {
  const received: Received[] = [];
  const state = { mode: 'echo' as ReceiverMode, failuresLeft: 0 };
  const app = Fastify({ forceCloseConnections: true });
  // Keep bodies as the exact text that was sent.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.post('/*', async (request, reply) => {
    const query = request.query as Record<string, string>;
    received.push({ url: request.url, query, headers: request.headers, body: String(request.body ?? '') });
    if (query.validationToken !== undefined) {
      if (state.mode === 'no-echo') return reply.code(404).send();
      if (state.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, 2000));
      const echoed = state.mode === 'wrong-token' ? 'something else' : query.validationToken;
      return reply.code(200).type('text/plain; charset=utf-8').send(echoed);
    }
    if (state.failuresLeft > 0) {
      state.failuresLeft -= 1;
      return reply.code(500).send();
    }
    return reply.code(202).send();
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    base,
    state,
    received,
    notifications: () => received.filter((entry) => entry.query.validationToken === undefined),
    close: () => app.close(),
  };
}

/** Waits until the emulator has delivered every queued notification. */
export async function flushNotifications(origin: string): Promise<void> {
  await fetch(`${origin}/_emulator/notifications/flush`, { method: 'POST' });
}

/** The error a promise rejects with, or undefined when it resolves. */
export const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: GraphError) => error,
  );

/** An ISO instant `minutes` from now. */
export const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A subscription on `calendarId` with the receiver's change and lifecycle URLs, as the app asks for one. */
export function subscribeTo(
  client: Client,
  receiver: Receiver,
  calendarId: string,
  overrides: Record<string, unknown> = {},
) {
  return client.api('/subscriptions').post({
    changeType: 'created,updated,deleted',
    notificationUrl: `${receiver.base}/webhooks/microsoft?tenant=1`,
    lifecycleNotificationUrl: `${receiver.base}/webhooks/microsoft/lifecycle`,
    resource: `me/calendars/${calendarId}/events`,
    expirationDateTime: inMinutes(4000),
    clientState: 'secret-client-state',
    ...overrides,
  });
}

/** The bodies the receiver got on `path` (its query left out), parsed. */
export const notificationBodies = (receiver: Receiver, path: string) =>
  receiver
    .notifications()
    .filter((entry) => entry.url.split('?')[0] === path)
    .map((entry) => JSON.parse(entry.body) as { value: Record<string, unknown>[] });

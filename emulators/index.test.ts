import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startEmulators } from './index.ts';

/** Resolves when the port can be bound again, i.e. the emulator really let it go. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ host: 'localhost', port }, () => server.close(() => resolve(true)));
  });
}

describe('startEmulators', () => {
  it('starts every emulator on its own ephemeral port and frees them on close', async () => {
    const emulators = await startEmulators();
    const { google, facebook } = emulators;
    try {
      expect(google.issuer).toMatch(/^http:\/\/localhost:\d+$/);
      expect(google.origin).toBe(google.issuer);
      expect(google).toMatchObject({
        clientId: 'sandbox-google-client',
        clientSecret: 'sandbox-google-secret',
      });
      expect(facebook.origin).toMatch(/^http:\/\/localhost:\d+$/);
      expect(facebook.origin).not.toBe(google.origin);
      expect(facebook).toMatchObject({
        dialogUrl: `${facebook.origin}/v24.0/dialog/oauth`,
        graphUrl: `${facebook.origin}/v24.0`,
        appId: 'sandbox-facebook-app',
        appSecret: 'sandbox-facebook-secret',
      });

      const discovery = await (await fetch(`${google.issuer}/.well-known/openid-configuration`)).json();
      expect(discovery).toMatchObject({ issuer: google.issuer, token_endpoint: `${google.issuer}/token` });

      const dialog = new URL(facebook.dialogUrl);
      dialog.search = new URLSearchParams({
        client_id: facebook.appId,
        redirect_uri: 'http://localhost:3000/auth/facebook/callback',
        state: 's',
      }).toString();
      expect((await fetch(dialog)).status).toBe(200);

      const origins = [
        google,
        facebook,
        emulators.todoist,
        emulators.googleCalendar,
        emulators.microsoft,
        emulators.stripe,
      ].map((e) => e.origin);
      expect(new Set(origins).size).toBe(6);
      const prices = await fetch(`${emulators.stripe.origin}/v1/prices?lookup_keys[]=timeboxerMonthly`, {
        headers: { authorization: `Bearer ${emulators.stripe.secretKey}` },
      });
      expect((await prices.json()).data[0]).toMatchObject({
        lookup_key: 'timeboxerMonthly',
        unit_amount: 300,
      });
      expect(emulators.microsoft.origin).toMatch(/^https:\/\/localhost:\d+$/);
      // Trusted by this process without NODE_EXTRA_CA_CERTS: a plain fetch over https succeeds.
      const me = await fetch(`${emulators.microsoft.graphBaseUrl}/v1.0/me`);
      expect(me.status).toBe(401);
      // The consent page a browser opens is plain HTTP, relayed to the HTTPS emulator.
      expect(emulators.microsoft.authorizeUrl).toMatch(
        /^http:\/\/localhost:\d+\/common\/oauth2\/v2\.0\/authorize$/,
      );
      const consent = new URL(emulators.microsoft.authorizeUrl);
      consent.search = new URLSearchParams({
        client_id: emulators.microsoft.clientId,
        response_type: 'code',
        redirect_uri: 'http://localhost:3000/auth/microsoft/callback',
        scope: 'offline_access User.Read',
        state: 's',
      }).toString();
      const page = await fetch(consent);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Continue');
      const todoistUser = await fetch(`${emulators.todoist.origin}/api/v1/user`);
      expect(todoistUser.status).toBe(401);
      const calendarList = await fetch(
        `${emulators.googleCalendar.apiRootUrl}calendar/v3/users/me/calendarList`,
      );
      expect(calendarList.status).toBe(401);
    } finally {
      await emulators.close();
    }

    await expect(fetch(`${google.origin}/_emulator/state`)).rejects.toThrow();
    await expect(fetch(`${facebook.origin}/_emulator/state`)).rejects.toThrow();
    expect(await portIsFree(Number(new URL(google.origin).port))).toBe(true);
    expect(await portIsFree(Number(new URL(facebook.origin).port))).toBe(true);
    expect(await portIsFree(Number(new URL(emulators.todoist.origin).port))).toBe(true);
    await emulators.close();
  });

  it('makes every new account of one person in the zone it is given, Todoist, Google and Microsoft alike', async () => {
    const emulators = await startEmulators({ defaultTimeZone: 'America/New_York' });
    const post = async (origin: string, path: string, body: object) => {
      const response = await fetch(`${origin}/_emulator/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.ok, path).toBe(true);
      return response.json();
    };
    try {
      const email = 'zone@example.com';
      const [todoistAccount] = (await post(emulators.todoist.origin, 'seed', { users: [{ email }] })).users;
      const todoistUser = await fetch(`${emulators.todoist.origin}/api/v1/user`, {
        headers: { authorization: `Bearer ${todoistAccount.personalToken}` },
      });
      expect((await todoistUser.json()).tz_info.timezone).toBe('America/New_York');
      const google = await post(emulators.googleCalendar.origin, 'accounts', { email });
      expect(google.calendars.map((calendar: { timeZone: string }) => calendar.timeZone)).toEqual(
        google.calendars.map(() => 'America/New_York'),
      );
      const [mailbox] = (await post(emulators.microsoft.origin, 'seed', { users: [{ email }] })).users;
      expect(mailbox.timeZone).toBe('America/New_York');
    } finally {
      await emulators.close();
    }
  });

  it('points the Todoist and Stripe webhooks at the app at start and again at runtime', async () => {
    const emulators = await startEmulators({
      webhookUrls: { todoist: 'http://localhost:1/api/webhooks/todoist' },
    });
    const webhookUrl = async (origin: string) =>
      ((await (await fetch(`${origin}/_emulator/webhook`)).json()) as { url: string | null }).url ?? null;
    const reset = (origin: string) => fetch(`${origin}/_emulator/reset`, { method: 'POST' });
    try {
      const { todoist, stripe } = emulators;
      expect(await webhookUrl(todoist.origin)).toBe('http://localhost:1/api/webhooks/todoist');
      expect(await webhookUrl(stripe.origin)).toBeNull();

      // With PORT=0 the app learns its origin only after listen, then tells the emulators.
      await emulators.setWebhookUrls({
        todoist: 'http://localhost:4321/api/webhooks/todoist',
        stripe: 'http://localhost:4321/api/webhooks/stripe',
      });
      expect(await webhookUrl(todoist.origin)).toBe('http://localhost:4321/api/webhooks/todoist');
      expect(await webhookUrl(stripe.origin)).toBe('http://localhost:4321/api/webhooks/stripe');

      // Tests reset the emulators between cases; the app's receivers must stay wired.
      await Promise.all([reset(todoist.origin), reset(stripe.origin)]);
      expect(await webhookUrl(todoist.origin)).toBe('http://localhost:4321/api/webhooks/todoist');
      expect(await webhookUrl(stripe.origin)).toBe('http://localhost:4321/api/webhooks/stripe');

      // A key left out keeps its URL.
      await emulators.setWebhookUrls({ stripe: 'http://localhost:5555/api/webhooks/stripe' });
      expect(await webhookUrl(todoist.origin)).toBe('http://localhost:4321/api/webhooks/todoist');
      expect(await webhookUrl(stripe.origin)).toBe('http://localhost:5555/api/webhooks/stripe');
      await expect(emulators.setWebhookUrls({ todoist: 'not a url' })).rejects.toThrow(/webhook URL/);
    } finally {
      await emulators.close();
    }
  });

  it('fails cleanly when a port is taken', async () => {
    const first = await startEmulators();
    try {
      const takenPort = Number(new URL(first.facebook.origin).port);
      await expect(startEmulators({ ports: { facebook: takenPort } })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });
});

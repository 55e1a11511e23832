import { describe, expect, it } from 'vitest';
import { ConfigError, DEVELOPMENT_TOKEN_KEY, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs in sandbox mode on an embedded database when nothing is configured', () => {
    const config = loadConfig({});
    expect(config.sandbox).toBe(true);
    expect(config.port).toBe(3000);
    expect(config.appUrl).toBe('http://localhost:3000');
    expect(config.database).toEqual({ kind: 'pglite', dataDir: '.data/pglite' });
    expect(config.google).toBeNull();
    expect(config.facebook).toBeNull();
    expect(config.stripe).toBeNull();
    expect(config.sessionSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('sends notice mails through SMTP_URL as MAIL_FROM, and refuses any other kind of URL', () => {
    expect(loadConfig({}).mail).toEqual({ smtpUrl: null, from: 'Timeboxer <notices@timeboxer.app>' });
    const config = loadConfig({
      SMTP_URL: 'smtps://u:p@smtp.example.com:465',
      MAIL_FROM: 'Ops <ops@example.com>',
    });
    expect(config.mail).toEqual({
      smtpUrl: 'smtps://u:p@smtp.example.com:465',
      from: 'Ops <ops@example.com>',
    });
    expect(() => loadConfig({ SMTP_URL: 'https://smtp.example.com' })).toThrow(ConfigError);
  });

  it('trusts proxies by hop count or address, never the client’s own X-Forwarded-For', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'yes please' })).toThrow(ConfigError);
  });

  it('puts the sandbox’s emulated accounts in this machine’s zone, or SANDBOX_TIME_ZONE; tests keep the emulators’ own', () => {
    expect(loadConfig({}).sandboxTimeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(loadConfig({ SANDBOX_TIME_ZONE: 'Asia/Tokyo' }).sandboxTimeZone).toBe('Asia/Tokyo');
    expect(loadConfig({ NODE_ENV: 'test' }).sandboxTimeZone).toBeNull();
    expect(() => loadConfig({ SANDBOX_TIME_ZONE: 'Mars/Olympus' })).toThrow(/SANDBOX_TIME_ZONE/);
  });

  it('spaces the emulated Todoist’s webhook retries 15 minutes apart, as Todoist, unless TODOIST_WEBHOOK_RETRY_SECONDS says otherwise', () => {
    expect(loadConfig({}).sandboxTodoistWebhookRetrySeconds).toBe(900);
    expect(loadConfig({ TODOIST_WEBHOOK_RETRY_SECONDS: '0.5' }).sandboxTodoistWebhookRetrySeconds).toBe(0.5);
    expect(() => loadConfig({ TODOIST_WEBHOOK_RETRY_SECONDS: '-1' })).toThrow(
      /TODOIST_WEBHOOK_RETRY_SECONDS/,
    );
  });

  it('lets PORT move the app and its default URL', () => {
    const config = loadConfig({ PORT: '4321' });
    expect(config.port).toBe(4321);
    expect(config.appUrl).toBe('http://localhost:4321');
  });

  it('reconciles every 15 minutes unless SYNC_RECONCILE_MINUTES says otherwise (0: never)', () => {
    expect(loadConfig({}).syncReconcileMinutes).toBe(15);
    expect(loadConfig({ SYNC_RECONCILE_MINUTES: '30' }).syncReconcileMinutes).toBe(30);
    expect(loadConfig({ SYNC_RECONCILE_MINUTES: '0' }).syncReconcileMinutes).toBe(0);
    // The schedule is a cron: a period that does not divide the hour would not be kept evenly.
    expect(() => loadConfig({ SYNC_RECONCILE_MINUTES: '7' })).toThrow(/SYNC_RECONCILE_MINUTES/);
  });

  it('serves metrics only with METRICS_PORT, on loopback unless METRICS_HOST names another interface', () => {
    expect(loadConfig({ HOST: '0.0.0.0' }).metrics).toBeNull();
    // HOST is often 0.0.0.0 in production: the metrics port must not follow it onto the public interface.
    expect(loadConfig({ HOST: '0.0.0.0', METRICS_PORT: '9464' }).metrics).toEqual({
      host: '127.0.0.1',
      port: 9464,
    });
    expect(loadConfig({ HOST: '0.0.0.0', METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics).toEqual({
      host: '10.0.0.5',
      port: 9464,
    });
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/app' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/app' });
  });

  it('leaves sandbox mode when sign-in credentials are configured, keeping the real endpoints', () => {
    const config = loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' });
    expect(config.sandbox).toBe(false);
    expect(config.google).toEqual({
      issuer: 'https://accounts.google.com',
      clientId: 'id',
      clientSecret: 'secret',
    });
    expect(config.facebook).toBeNull();
  });

  it('reads Stripe keys together, with Stripe hosts as payment redirect targets', () => {
    const config = loadConfig({ STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' });
    expect(config.stripe).toMatchObject({
      secretKey: 'sk_live_x',
      webhookSecret: 'whsec_x',
      apiUrl: 'https://api.stripe.com',
    });
    expect(config.stripe?.redirectOrigins).toContain('https://checkout.stripe.com');
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_live_x' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
  });

  it('refuses an id without its secret', () => {
    expect(() => loadConfig({ FACEBOOK_APP_ID: 'id' })).toThrow(/FACEBOOK_APP_ID and FACEBOOK_APP_SECRET/);
  });

  it('names every invalid variable', () => {
    try {
      loadConfig({ PORT: 'abc', SUPPORT_EMAIL: 'nope' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/PORT/);
      expect((error as Error).message).toMatch(/SUPPORT_EMAIL/);
    }
  });

  it('uses the development token key unless keys are configured', () => {
    const config = loadConfig({});
    expect(config.tokenKeys).toEqual([{ id: 'dev', key: DEVELOPMENT_TOKEN_KEY.key }]);
    expect(config.tokenKeys[0]?.key.length).toBe(32);
    expect(config.todoist).toBeNull();
    expect(config.googleCalendar).toBeNull();
    expect(config.microsoft).toBeNull();
  });

  it('reads TOKEN_ENCRYPTION_KEYS, the first one encrypting', () => {
    const k1 = Buffer.alloc(32, 1).toString('base64');
    const k2 = Buffer.alloc(32, 2).toString('base64url');
    const config = loadConfig({ TOKEN_ENCRYPTION_KEYS: ` 2026b:${k2}, 2025a:${k1} ` });
    expect(config.tokenKeys.map((key) => key.id)).toEqual(['2026b', '2025a']);
    expect(config.tokenKeys[0]?.key).toEqual(Buffer.alloc(32, 2));
    expect(config.tokenKeys[1]?.key).toEqual(Buffer.alloc(32, 1));
  });

  it.each([
    ['k1:c2hvcnQ=', /32 bytes/],
    [`:${Buffer.alloc(32).toString('base64')}`, /needs an id/],
    [`a.b:${Buffer.alloc(32).toString('base64')}`, /needs an id/],
    [`k:${Buffer.alloc(32).toString('base64')},k:${Buffer.alloc(32).toString('base64')}`, /unique/],
  ])('refuses TOKEN_ENCRYPTION_KEYS=%s', (value, message) => {
    expect(() => loadConfig({ TOKEN_ENCRYPTION_KEYS: value })).toThrow(message);
  });

  it('connects Todoist, Google Calendar and Microsoft at their real endpoints when configured', () => {
    const config = loadConfig({
      GOOGLE_CLIENT_ID: 'gid',
      GOOGLE_CLIENT_SECRET: 'gsecret',
      TODOIST_CLIENT_ID: 'tid',
      TODOIST_CLIENT_SECRET: 'tsecret',
      MICROSOFT_CLIENT_ID: 'mid',
      MICROSOFT_CLIENT_SECRET: 'msecret',
    });
    expect(config.todoist).toEqual({
      clientId: 'tid',
      clientSecret: 'tsecret',
      oauthUrl: 'https://todoist.com',
      apiUrl: 'https://api.todoist.com',
    });
    // At Google one OAuth client serves sign-in and calendar access.
    expect(config.googleCalendar).toEqual({
      clientId: 'gid',
      clientSecret: 'gsecret',
      authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      revokeUrl: 'https://oauth2.googleapis.com/revoke',
      apiUrl: 'https://www.googleapis.com/',
    });
    expect(config.microsoft).toEqual({
      clientId: 'mid',
      clientSecret: 'msecret',
      authorityUrl: 'https://login.microsoftonline.com/common',
      graphUrl: 'https://graph.microsoft.com',
    });
    expect(() => loadConfig({ TODOIST_CLIENT_ID: 'tid' })).toThrow(/TODOIST_CLIENT_SECRET/);
    expect(() => loadConfig({ MICROSOFT_CLIENT_SECRET: 'x' })).toThrow(/MICROSOFT_CLIENT_ID/);
  });

  const randomSecret = 'q8Zr2LmX0vT5nB7cYh3KdW9sPaE1uJfG';
  const production = {
    NODE_ENV: 'production',
    SESSION_SECRET: randomSecret,
    GOOGLE_CLIENT_ID: 'a',
    GOOGLE_CLIENT_SECRET: 'b',
  };
  // 32 bytes from a random source, written down once.
  const randomKey = 'E38RLjGhJnjB5DakbZOz5b5R1NBGIimKyDYRnNbEiRY=';
  const withKey = { ...production, TOKEN_ENCRYPTION_KEYS: `k:${randomKey}` };
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return '';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('requires token encryption keys in production', () => {
    expect(() => loadConfig(production)).toThrow(/TOKEN_ENCRYPTION_KEYS is required in production/);
    expect(loadConfig({ ...production, TOKEN_ENCRYPTION_KEYS: `prod1:${randomKey}` }).tokenKeys[0]?.id).toBe(
      'prod1',
    );
  });

  it('refuses in production the development key, a key of one repeated byte, and a key with junk around it', () => {
    const refused = (key: string, reason: RegExp) =>
      expect(() => loadConfig({ ...production, TOKEN_ENCRYPTION_KEYS: `k:${key}` })).toThrow(reason);
    refused(DEVELOPMENT_TOKEN_KEY.key.toString('base64'), /development key/);
    refused(Buffer.alloc(32).toString('base64'), /one byte repeated/);
    // Random bytes have none of these patterns; the chance that they look so is below one in 10^13.
    refused(Buffer.from('ab'.repeat(16)).toString('base64'), /repeats itself every 2 bytes/);
    refused(Buffer.from('0123456789abcdef0123456789abcdef').toString('base64'), /every 16 bytes/);
    refused(Buffer.from('Pack my box with 5 dozen jugs, Q').toString('base64'), /is text, not random bytes/);
    refused(Buffer.from(Array.from({ length: 32 }, (_, index) => index)).toString('base64'), /counts up/);
    refused(
      Buffer.from(Array.from({ length: 32 }, (_, index) => (index * 37) % 256)).toString('base64'),
      /counts up/,
    );
    // Ten byte values in no pattern (random bytes taken modulo 10).
    refused('CAgFBgcCCAAGBQEEAAgDAAAHAAgFAQkJBwcEAgEACQc=', /too few different bytes/);
    refused(`!!${randomKey}!!`, /must be 32 bytes in base64/);
    refused(`${randomKey} extra`, /must be 32 bytes in base64/);
    // Outside production the development key is fine (tests and the sandbox use it).
    expect(
      loadConfig({ TOKEN_ENCRYPTION_KEYS: `dev:${DEVELOPMENT_TOKEN_KEY.key.toString('base64')}` }).tokenKeys,
    ).toHaveLength(1);
  });

  it('refuses a session secret in production that a person would guess', () => {
    expect(problemsOf({ ...withKey, SESSION_SECRET: 'x'.repeat(32) })).toMatch(
      /SESSION_SECRET looks made by hand/,
    );
    for (const guessable of [
      'my-super-secret-session-key-2024',
      'abcdefghijklmnopqrstuvwxyz012345',
      'ThisIsMySecretKeyForTimeboxerApp',
      'qwertyuiopasdfghjklzxcvbnm123456',
    ]) {
      expect(problemsOf({ ...withKey, SESSION_SECRET: guessable }), guessable).toContain(
        'SESSION_SECRET could be guessed',
      );
    }
    for (const random of [
      randomSecret,
      'DIjZeA5YK5MGIL4MMS-vb1pnQM5FCY2KaLahzpP3D38',
      'a0bc2625d1a7e794bfb006dae029b4dd',
    ]) {
      expect(loadConfig({ ...withKey, SESSION_SECRET: random }).sessionSecret).toBe(random);
    }
    // Outside production only the length counts (development and tests choose their own).
    expect(loadConfig({ SESSION_SECRET: 'my-super-secret-session-key-2024' }).sessionSecret).toBeDefined();
    expect(problemsOf({ SESSION_SECRET: 'short' })).toContain(
      'SESSION_SECRET must be at least 32 characters',
    );
  });

  it('names every problem of a bad production start at once, the short secret among them', () => {
    const message = problemsOf({
      NODE_ENV: 'production',
      SESSION_SECRET: 'too-short',
      TOKEN_ENCRYPTION_KEYS: `dev:${DEVELOPMENT_TOKEN_KEY.key.toString('base64')}`,
    });
    expect(message).toContain('SESSION_SECRET must be at least 32 characters');
    expect(message).toContain('is the development key written in the source');
    expect(message).toContain('production needs Google or Facebook sign-in credentials');
  });

  it('names every missing or bad setting at once', () => {
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'a', STRIPE_SECRET_KEY: 'sk' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together');
    expect(message).toContain('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together');
    expect(message).toContain('SESSION_SECRET is required in production');
    expect(message).toContain('TOKEN_ENCRYPTION_KEYS is required in production');
  });

  it('requires a session secret and real credentials in production', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'a', GOOGLE_CLIENT_SECRET: 'b' }),
    ).toThrow(/SESSION_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production', SESSION_SECRET: randomSecret })).toThrow(/credentials/);
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

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

  it('lets PORT move the app and its default URL', () => {
    const config = loadConfig({ PORT: '4321' });
    expect(config.port).toBe(4321);
    expect(config.appUrl).toBe('http://localhost:4321');
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

  it('requires a session secret and real credentials in production', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'a', GOOGLE_CLIENT_SECRET: 'b' }),
    ).toThrow(/SESSION_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) })).toThrow(
      /credentials/,
    );
  });
});

import { randomBytes } from 'node:crypto';
import { z } from 'zod';

const optional = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('localhost'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  APP_URL: optional.pipe(z.url().optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  TRUST_PROXY: booleanFlag,
  DATABASE_URL: optional,
  PGLITE_DATA_DIR: z.string().default('.data/pglite'),
  SESSION_SECRET: optional.pipe(
    z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  ),
  SUPPORT_EMAIL: z.email().default('support@timeboxer.app'),
  ANALYTICS_SCRIPT_URL: optional.pipe(z.url({ protocol: /^https?$/ }).optional()),
  CHAT_WIDGET_SCRIPT_URL: optional.pipe(z.url({ protocol: /^https?$/ }).optional()),
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_CLIENT_SECRET: optional,
  GOOGLE_ISSUER: z.url().default('https://accounts.google.com'),
  FACEBOOK_APP_ID: optional,
  FACEBOOK_APP_SECRET: optional,
  FACEBOOK_DIALOG_URL: z.url().default('https://www.facebook.com/v24.0/dialog/oauth'),
  FACEBOOK_GRAPH_URL: z.url().default('https://graph.facebook.com/v24.0'),
  STRIPE_SECRET_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  STRIPE_API_URL: z.url().default('https://api.stripe.com'),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(30),
});

export type GoogleIdentityConfig = { issuer: string; clientId: string; clientSecret: string };
export type FacebookIdentityConfig = {
  dialogUrl: string;
  graphUrl: string;
  appId: string;
  appSecret: string;
};

export type StripeConfig = {
  secretKey: string;
  webhookSecret: string;
  apiUrl: string;
  /** Where our payment forms send the browser (Checkout, billing portal); allowed as CSP form targets. */
  redirectOrigins: string[];
};

export type Config = {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  appUrl: string;
  logLevel: string;
  /** JSON lines for machines; readable lines for a developer's terminal. */
  logFormat: 'json' | 'pretty';
  trustProxy: boolean;
  database: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string };
  sessionSecret: string;
  supportEmail: string;
  /** Third-party scripts the web app may load after cookie consent; none by default. */
  analyticsScriptUrl: string | null;
  chatWidgetScriptUrl: string | null;
  authRateLimitPerMinute: number;
  /** True when no provider credentials are configured: the emulated providers stand in for all of them. */
  sandbox: boolean;
  google: GoogleIdentityConfig | null;
  facebook: FacebookIdentityConfig | null;
  /** Payments; null when not configured (upgrading is then unavailable). */
  stripe: StripeConfig | null;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment once at boot; the only reader of process.env in the server. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const google = pair('GOOGLE_CLIENT_ID', e.GOOGLE_CLIENT_ID, 'GOOGLE_CLIENT_SECRET', e.GOOGLE_CLIENT_SECRET);
  const facebook = pair('FACEBOOK_APP_ID', e.FACEBOOK_APP_ID, 'FACEBOOK_APP_SECRET', e.FACEBOOK_APP_SECRET);
  const stripe = pair(
    'STRIPE_SECRET_KEY',
    e.STRIPE_SECRET_KEY,
    'STRIPE_WEBHOOK_SECRET',
    e.STRIPE_WEBHOOK_SECRET,
  );
  const sandbox = !google && !facebook;
  if (e.NODE_ENV === 'production' && !e.SESSION_SECRET) {
    throw new ConfigError('Invalid configuration:\n  SESSION_SECRET is required in production');
  }
  if (e.NODE_ENV === 'production' && sandbox) {
    throw new ConfigError(
      'Invalid configuration:\n  production needs Google or Facebook sign-in credentials',
    );
  }
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (e.NODE_ENV === 'development' && process.stdout.isTTY ? 'pretty' : 'json'),
    trustProxy: e.TRUST_PROXY,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'pglite', dataDir: e.PGLITE_DATA_DIR },
    sessionSecret: e.SESSION_SECRET ?? randomBytes(32).toString('base64url'),
    supportEmail: e.SUPPORT_EMAIL,
    analyticsScriptUrl: e.ANALYTICS_SCRIPT_URL ?? null,
    chatWidgetScriptUrl: e.CHAT_WIDGET_SCRIPT_URL ?? null,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    sandbox,
    google: google && { issuer: e.GOOGLE_ISSUER, clientId: google[0], clientSecret: google[1] },
    facebook: facebook && {
      dialogUrl: e.FACEBOOK_DIALOG_URL,
      graphUrl: e.FACEBOOK_GRAPH_URL,
      appId: facebook[0],
      appSecret: facebook[1],
    },
    stripe: stripe && {
      secretKey: stripe[0],
      webhookSecret: stripe[1],
      apiUrl: e.STRIPE_API_URL,
      redirectOrigins: ['https://checkout.stripe.com', 'https://billing.stripe.com'],
    },
  };
}

function pair(
  idName: string,
  id: string | undefined,
  secretName: string,
  secret: string | undefined,
): [string, string] | null {
  if (!id && !secret) return null;
  if (!id || !secret) {
    throw new ConfigError(`Invalid configuration:\n  ${idName} and ${secretName} must be set together`);
  }
  return [id, secret];
}

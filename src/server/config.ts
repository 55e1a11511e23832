import { randomBytes } from 'node:crypto';
import { envSchema } from './config-env.ts';
import { guessableSecretProblem, SESSION_SECRET_MIN_LENGTH, weakKeyProblem } from './config-secrets.ts';

/**
 * The token-encryption key outside production when TOKEN_ENCRYPTION_KEYS is not set. It is NOT secret
 * (it is right here in the source): it only lets development, tests and the sandbox run without setup.
 */
export const DEVELOPMENT_TOKEN_KEY = {
  id: 'dev',
  key: Buffer.from('dGltZWJveGVyLWRldmVsb3BtZW50LWtleS0zMmJ5dGU', 'base64url'),
} as const;

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

/** An AES-256 key that encrypts provider tokens at rest, with the id stored beside each ciphertext. */
export type TokenKey = { id: string; key: Buffer };

/** Todoist OAuth (`oauthUrl`: authorize and token exchange) and API v1 (`apiUrl`: API and revocation). */
export type TodoistConfig = { clientId: string; clientSecret: string; oauthUrl: string; apiUrl: string };

/** Google Calendar consent and API; at Google the sign-in OAuth client serves both. */
export type GoogleCalendarConfig = {
  clientId: string;
  clientSecret: string;
  authorizationUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  apiUrl: string;
};

/** Microsoft identity platform v2 (`authorityUrl` ends with the tenant, e.g. `/common`) and Graph. */
export type MicrosoftConfig = {
  clientId: string;
  clientSecret: string;
  authorityUrl: string;
  /** Where the browser is sent to consent, when it differs from `authorityUrl` (the sandbox's plain-HTTP page). */
  browserAuthorityUrl?: string;
  graphUrl: string;
};

export type Config = {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  appUrl: string;
  logLevel: string;
  /** JSON lines for machines; readable lines for a developer's terminal. */
  logFormat: 'json' | 'pretty';
  /** Fastify's `trustProxy`: false, a hop count, or our proxies' addresses and ranges. */
  trustProxy: false | number | string[];
  database: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string };
  sessionSecret: string;
  supportEmail: string;
  /** Notice mails (sync stopped, trial ending …); without an SMTP server none are sent. */
  mail: { smtpUrl: string | null; from: string };
  /** Third-party scripts the web app may load after cookie consent; none by default. */
  analyticsScriptUrl: string | null;
  chatWidgetScriptUrl: string | null;
  authRateLimitPerMinute: number;
  /** The safety brake's thresholds (sync/plan/removal-brake.ts). */
  syncBrake: { minItems: number; share: number; windowMs: number };
  /** Per provider request of a sync run; a hanging provider cannot hold a user's run longer. */
  syncProviderTimeoutMs: number;
  /** The most sync runs one worker process keeps in flight; null: as suits the database. */
  syncMaxRunsPerWorker: number | null;
  /** Minutes between two reconciles; 0: none. */
  syncReconcileMinutes: number;
  /** The first wait before a refused notice mail is tried again (then doubled, at most an hour). */
  noticeMailRetrySeconds: number;
  /** The Google Cloud project's Calendar API quota per minute, which all workers together keep to. */
  googleCalendarRequestsPerMinute: number;
  /** True when no provider credentials are configured: the emulated providers stand in for all of them. */
  sandbox: boolean;
  /** The zone of the sandbox's new emulated accounts (SANDBOX_TIME_ZONE); null: each emulator's own. */
  sandboxTimeZone: string | null;
  /** Seconds between the emulated Todoist's retries of a refused webhook (TODOIST_WEBHOOK_RETRY_SECONDS). */
  sandboxTodoistWebhookRetrySeconds: number;
  google: GoogleIdentityConfig | null;
  facebook: FacebookIdentityConfig | null;
  /** Payments; null when not configured (upgrading is then unavailable). */
  stripe: StripeConfig | null;
  /** Keys that encrypt provider tokens; the first one encrypts, all of them decrypt. */
  tokenKeys: TokenKey[];
  /** Connectable accounts; each is null when not configured (connecting it is then unavailable). */
  todoist: TodoistConfig | null;
  googleCalendar: GoogleCalendarConfig | null;
  microsoft: MicrosoftConfig | null;
  /**
   * Where `/metrics` is served apart from the app, by web and worker processes alike; null: nowhere
   * but on the app's own port, and there only in sandbox mode.
   */
  metrics: { host: string; port: number } | null;
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
  // Every missing or bad setting is named at once, not the first one per start.
  const problems: string[] = [];
  const pair = (idName: string, id: string | undefined, secretName: string, secret: string | undefined) =>
    pairOf(problems, idName, id, secretName, secret);
  const google = pair('GOOGLE_CLIENT_ID', e.GOOGLE_CLIENT_ID, 'GOOGLE_CLIENT_SECRET', e.GOOGLE_CLIENT_SECRET);
  const facebook = pair('FACEBOOK_APP_ID', e.FACEBOOK_APP_ID, 'FACEBOOK_APP_SECRET', e.FACEBOOK_APP_SECRET);
  const stripe = pair(
    'STRIPE_SECRET_KEY',
    e.STRIPE_SECRET_KEY,
    'STRIPE_WEBHOOK_SECRET',
    e.STRIPE_WEBHOOK_SECRET,
  );
  const todoist = pair(
    'TODOIST_CLIENT_ID',
    e.TODOIST_CLIENT_ID,
    'TODOIST_CLIENT_SECRET',
    e.TODOIST_CLIENT_SECRET,
  );
  const microsoft = pair(
    'MICROSOFT_CLIENT_ID',
    e.MICROSOFT_CLIENT_ID,
    'MICROSOFT_CLIENT_SECRET',
    e.MICROSOFT_CLIENT_SECRET,
  );
  const sandbox = !google && !facebook;
  const production = e.NODE_ENV === 'production';
  if (production && !e.SESSION_SECRET) problems.push('SESSION_SECRET is required in production');
  const secretProblem = e.SESSION_SECRET && secretProblemOf(e.SESSION_SECRET, production);
  if (secretProblem) problems.push(secretProblem);
  if (production && sandbox) problems.push('production needs Google or Facebook sign-in credentials');
  if (production && !e.TOKEN_ENCRYPTION_KEYS)
    problems.push('TOKEN_ENCRYPTION_KEYS is required in production');
  const tokenKeys = e.TOKEN_ENCRYPTION_KEYS
    ? parseTokenKeys(e.TOKEN_ENCRYPTION_KEYS, production, problems)
    : [{ id: DEVELOPMENT_TOKEN_KEY.id, key: DEVELOPMENT_TOKEN_KEY.key }];
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
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
    mail: { smtpUrl: e.SMTP_URL ?? null, from: e.MAIL_FROM },
    analyticsScriptUrl: e.ANALYTICS_SCRIPT_URL ?? null,
    chatWidgetScriptUrl: e.CHAT_WIDGET_SCRIPT_URL ?? null,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    syncBrake: {
      minItems: e.SYNC_BRAKE_MIN_ITEMS,
      share: e.SYNC_BRAKE_SHARE,
      windowMs: e.SYNC_BRAKE_WINDOW_MINUTES * 60_000,
    },
    syncProviderTimeoutMs: e.SYNC_PROVIDER_TIMEOUT_MS,
    syncMaxRunsPerWorker: e.SYNC_MAX_RUNS_PER_WORKER ?? null,
    syncReconcileMinutes: e.SYNC_RECONCILE_MINUTES,
    noticeMailRetrySeconds: e.NOTICE_MAIL_RETRY_SECONDS,
    googleCalendarRequestsPerMinute: e.GOOGLE_CALENDAR_REQUESTS_PER_MINUTE,
    sandbox,
    sandboxTimeZone:
      e.SANDBOX_TIME_ZONE ??
      (e.NODE_ENV === 'test' ? null : Intl.DateTimeFormat().resolvedOptions().timeZone),
    sandboxTodoistWebhookRetrySeconds: e.TODOIST_WEBHOOK_RETRY_SECONDS,
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
    tokenKeys,
    todoist: todoist && {
      clientId: todoist[0],
      clientSecret: todoist[1],
      oauthUrl: e.TODOIST_BASE_URL,
      apiUrl: e.TODOIST_API_URL,
    },
    googleCalendar: google && {
      clientId: google[0],
      clientSecret: google[1],
      authorizationUrl: e.GOOGLE_AUTHORIZATION_URL,
      tokenUrl: e.GOOGLE_TOKEN_URL,
      revokeUrl: e.GOOGLE_REVOKE_URL,
      apiUrl: e.GOOGLE_CALENDAR_API_URL,
    },
    microsoft: microsoft && {
      clientId: microsoft[0],
      clientSecret: microsoft[1],
      authorityUrl: e.MICROSOFT_AUTHORITY_URL.replace(/\/$/, ''),
      graphUrl: e.MICROSOFT_GRAPH_URL.replace(/\/$/, ''),
    },
    metrics:
      e.METRICS_PORT === undefined ? null : { host: e.METRICS_HOST ?? '127.0.0.1', port: e.METRICS_PORT },
  };
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
/** 32 bytes in base64 (padded) or base64url (unpadded), and nothing else around them. */
const KEY_32_BYTES = /^(?:[A-Za-z0-9+/]{43}=|[A-Za-z0-9_-]{43})$/;
/** Anywhere a session secret is short; in production also one that could be guessed. */
function secretProblemOf(secret: string, production: boolean): string | null {
  if (production) return guessableSecretProblem('SESSION_SECRET', secret);
  return secret.length < SESSION_SECRET_MIN_LENGTH
    ? `SESSION_SECRET must be at least ${SESSION_SECRET_MIN_LENGTH} characters`
    : null;
}

/**
 * `id:base64-32-bytes`, comma-separated; ids are unique and safe inside the ciphertext format. In
 * production the development key and keys that are not random (`weakKeyProblem`) are refused.
 */
function parseTokenKeys(value: string, production: boolean, found: string[]): TokenKey[] {
  const problems: string[] = [];
  const keys = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry, index) => {
      const separator = entry.indexOf(':');
      const id = separator > 0 ? entry.slice(0, separator) : '';
      const encoded = entry.slice(separator + 1);
      const key = Buffer.from(encoded, 'base64');
      const name = `key ${index + 1} (${id || '?'})`;
      if (!KEY_ID.test(id)) problems.push(`key ${index + 1} needs an id of letters, digits, _ or -`);
      if (!KEY_32_BYTES.test(encoded) || key.length !== 32)
        problems.push(`${name} must be 32 bytes in base64`);
      else if (production && key.equals(DEVELOPMENT_TOKEN_KEY.key)) {
        problems.push(`${name} is the development key written in the source: use a random one`);
      } else {
        const weakness = production ? weakKeyProblem(key) : null;
        if (weakness) problems.push(`${name} ${weakness}: use 32 random bytes (openssl rand -base64 32)`);
      }
      return { id, key };
    });
  if (keys.length === 0) problems.push('no key given');
  if (new Set(keys.map((key) => key.id)).size !== keys.length) problems.push('key ids must be unique');
  if (problems.length > 0) found.push(`TOKEN_ENCRYPTION_KEYS: ${problems.join('; ')}`);
  return keys;
}

function pairOf(
  problems: string[],
  idName: string,
  id: string | undefined,
  secretName: string,
  secret: string | undefined,
): [string, string] | null {
  if (!id && !secret) return null;
  if (!id || !secret) {
    problems.push(`${idName} and ${secretName} must be set together`);
    return null;
  }
  return [id, secret];
}

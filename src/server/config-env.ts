import { z } from 'zod';

/** Whether `Intl` knows the zone (`Europe/Berlin`, `UTC`). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const optional = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/**
 * The server's environment variables, each with its meaning, range and default (README.md lists them
 * for operators); config.ts reads them into the app's `Config`.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('localhost'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  APP_URL: optional.pipe(z.url().optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  /**
   * Behind reverse proxies: how many (a hop count; `true` = 1, the usual one proxy) or which addresses
   * (comma-separated IPs or CIDR ranges) are ours. A client writes the left of `X-Forwarded-For` itself,
   * so only the entries our proxies appended are believed.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === '' || value === 'false' || value === '0') return false;
      if (value === 'true') return 1;
      if (/^\d+$/.test(value)) return Number(value);
      const ranges = value.split(',').map((entry) => entry.trim());
      if (ranges.every((entry) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry))) return ranges;
      context.addIssue({ code: 'custom', message: 'a hop count, or IP addresses and CIDR ranges' });
      return z.NEVER;
    }),
  DATABASE_URL: optional,
  PGLITE_DATA_DIR: z.string().default('.data/pglite'),
  /** Checked with the other settings (config-secrets.ts), so that a bad start names every problem. */
  SESSION_SECRET: optional,
  SUPPORT_EMAIL: z.email().default('support@timeboxer.app'),
  /** Where notice mails go out (`smtp://` or `smtps://user:password@host:port`); none: no mails sent. */
  SMTP_URL: optional.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  /** The sender of notice mails, e.g. `Timeboxer <notices@example.com>`. */
  MAIL_FROM: z.string().trim().min(3).default('Timeboxer <notices@timeboxer.app>'),
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
  /**
   * The zone of the sandbox's emulated accounts, Todoist's, Google Calendar's and Microsoft 365's alike
   * (one person's accounts agree): an IANA name. Default: this machine's zone, so that `npm start` shows
   * the times of the person trying it; the tests' apps (NODE_ENV=test) keep each emulator's own.
   */
  SANDBOX_TIME_ZONE: optional.pipe(z.string().refine(isTimeZone, 'an IANA time zone').optional()),
  /**
   * Sandbox mode only: seconds before the emulated Todoist retries a webhook the app did not answer with
   * 200 (at most 3 times). Todoist's own spacing, 15 minutes, by default; the tests' apps take 1.
   */
  TODOIST_WEBHOOK_RETRY_SECONDS: z.coerce.number().min(0).max(86_400).default(900),
  /** The safety brake holds back a run's removals above this many items … */
  SYNC_BRAKE_MIN_ITEMS: z.coerce.number().int().min(0).default(5),
  /** … and above this share of the user's linked pairs (0 to 1) … */
  SYNC_BRAKE_SHARE: z.coerce.number().min(0).max(1).default(0.2),
  /** … counting the removals of this many minutes before the run. */
  SYNC_BRAKE_WINDOW_MINUTES: z.coerce.number().int().min(0).default(10),
  /** A sync call to a provider that has not answered by then is abandoned (the run fails and is retried). */
  SYNC_PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /** The most sync runs one worker process keeps in flight (default: 64 on PostgreSQL, 16 embedded). */
  SYNC_MAX_RUNS_PER_WORKER: z.coerce.number().int().min(4).optional(),
  /**
   * Minutes between two reconciles (every active user's both sides read again); 0: none (the scale
   * benchmark starts its own wave). Must divide the hour, as the schedule is a cron.
   */
  SYNC_RECONCILE_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(60)
    .refine((minutes) => minutes === 0 || 60 % minutes === 0, 'must be 0 or divide 60')
    .default(15),
  /**
   * Seconds before a notice mail the mail server refused is tried again; each next try waits twice as
   * long, at most an hour, 20 tries in all (about half a day with the default).
   */
  NOTICE_MAIL_RETRY_SECONDS: z.coerce.number().int().min(1).default(5),
  /**
   * The Google Cloud project's Calendar API quota "per minute per project" (10,000 unless raised in the
   * Cloud Console): every worker together stays within 90% of it.
   */
  GOOGLE_CALENDAR_REQUESTS_PER_MINUTE: z.coerce.number().int().positive().default(10_000),
  TOKEN_ENCRYPTION_KEYS: optional,
  TODOIST_CLIENT_ID: optional,
  TODOIST_CLIENT_SECRET: optional,
  TODOIST_BASE_URL: z.url().default('https://todoist.com'),
  TODOIST_API_URL: z.url().default('https://api.todoist.com'),
  GOOGLE_AUTHORIZATION_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_REVOKE_URL: z.url().default('https://oauth2.googleapis.com/revoke'),
  GOOGLE_CALENDAR_API_URL: z.url().default('https://www.googleapis.com/'),
  MICROSOFT_CLIENT_ID: optional,
  MICROSOFT_CLIENT_SECRET: optional,
  MICROSOFT_AUTHORITY_URL: z.url().default('https://login.microsoftonline.com/common'),
  MICROSOFT_GRAPH_URL: z.url().default('https://graph.microsoft.com'),
  /** `/metrics` on a port of its own, in every role (docs/decisions/015-metrics.md); unset: none. */
  METRICS_PORT: optional.pipe(z.coerce.number<string>().int().min(0).max(65535).optional()),
  /**
   * The interface that port listens on: a private one, never the public. Loopback by default, not HOST
   * (often 0.0.0.0 in production), so metrics are never public unless someone chooses an interface.
   */
  METRICS_HOST: optional,
});

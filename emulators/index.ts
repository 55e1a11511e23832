import { createFacebookEmulator } from './facebook/facebook.emulator.ts';
import { createGoogleCalendarEmulator } from './google-calendar/google-calendar.emulator.ts';
import { createGoogleIdentityEmulator } from './google-identity/google-identity.emulator.ts';
import { createMailEmulator } from './mail/mail.emulator.ts';
import {
  DEFAULT_CERTIFICATE_DIR,
  ensureLocalCertificate,
  trustCertificate,
} from './microsoft/microsoft.certificate.ts';
import { createMicrosoftConsentFront } from './microsoft/microsoft.consent-front.ts';
import { createMicrosoftEmulator } from './microsoft/microsoft.emulator.ts';
import { type EmulatorFactory, type StartedEmulator, startEmulator } from './shared/start-emulator.ts';
import {
  createStripeEmulator,
  SANDBOX_STRIPE_SECRET_KEY,
  SANDBOX_STRIPE_WEBHOOK_SECRET,
} from './stripe/stripe.emulator.ts';
import { createTodoistEmulator } from './todoist/todoist.emulator.ts';

export const SANDBOX_GOOGLE_CLIENT = {
  clientId: 'sandbox-google-client',
  clientSecret: 'sandbox-google-secret',
} as const;

export const SANDBOX_FACEBOOK_APP = {
  appId: 'sandbox-facebook-app',
  appSecret: 'sandbox-facebook-secret',
} as const;

export const SANDBOX_TODOIST_APP = {
  clientId: 'sandbox-todoist-client',
  clientSecret: 'sandbox-todoist-secret',
} as const;

export const SANDBOX_MICROSOFT_APP = {
  clientId: '6731de76-14a6-49ae-97bc-6eba6914391e',
  clientSecret: 'sandbox-microsoft-secret',
} as const;

/** The Graph API version the dialog and Graph URLs carry; the emulator accepts any `vNN.N`. */
export const FACEBOOK_GRAPH_VERSION = 'v24.0';

export type StartEmulatorsOptions = {
  /** Interface to listen on and host name of the returned URLs; default `localhost`. */
  host?: string;
  /** 0 or absent = an ephemeral port. */
  ports?: {
    google?: number;
    facebook?: number;
    todoist?: number;
    googleCalendar?: number;
    microsoft?: number;
    microsoftConsent?: number;
    stripe?: number;
    mail?: number;
    smtp?: number;
  };
  /** Where emulators deliver their webhooks (the app's receiving routes); also `setWebhookUrls` later. */
  webhookUrls?: WebhookUrls;
  /** Where the Microsoft emulator's local CA and certificate are kept (default `.data/certs`). */
  certificateDir?: string;
  logger?: boolean;
  /**
   * The time zone of every new emulated account, Todoist's, Google Calendar's and Microsoft 365's alike,
   * as one person's accounts are; absent: each emulator's own default.
   */
  defaultTimeZone?: string;
  /**
   * Seconds between the retries of a Todoist webhook the app did not answer with 200: Todoist's 15
   * minutes by default (900); tests and a developer's sandbox may make it shorter.
   */
  todoistWebhookRetrySeconds?: number;
};

/** The app's webhook receivers. Todoist webhooks go to the sandbox Todoist app's callback URL. */
export type WebhookUrls = { todoist?: string; stripe?: string };

export type RunningEmulators = {
  google: { issuer: string; clientId: string; clientSecret: string; origin: string };
  facebook: { dialogUrl: string; graphUrl: string; appId: string; appSecret: string; origin: string };
  /** Todoist API v1 and its OAuth: `new TodoistApi(token, { baseUrl: origin })`. */
  todoist: { origin: string; clientId: string; clientSecret: string };
  /** Google Calendar v3 and its OAuth consent; the same OAuth client as Google sign-in, as at Google. */
  googleCalendar: {
    origin: string;
    apiRootUrl: string;
    authUrl: string;
    tokenUrl: string;
    revokeUrl: string;
    clientId: string;
    clientSecret: string;
  };
  /**
   * Microsoft identity platform and Graph, over HTTPS (the Graph SDK sends tokens only over https).
   * This process trusts its CA once started; `caPath` is the file for `NODE_EXTRA_CA_CERTS` elsewhere.
   */
  microsoft: {
    origin: string;
    /** The browser-facing consent page, over plain HTTP (see microsoft.consent-front.ts). */
    authorizeUrl: string;
    consentOrigin: string;
    tokenUrl: string;
    graphBaseUrl: string;
    clientId: string;
    clientSecret: string;
    caPath: string;
  };
  /** Stripe: `new Stripe(secretKey, { host, port, protocol: 'http' })`; hosted pages on the same origin. */
  stripe: { origin: string; secretKey: string; webhookSecret: string };
  /** A mail server that keeps what it receives: send to `smtpUrl`, read the inbox at `origin`. */
  mail: { origin: string; smtpUrl: string };
  /**
   * Points the emulators' webhooks at the app, e.g. once it listens (with PORT=0 its origin is known only
   * then). A URL set here is kept by `POST /_emulator/reset`; a key left out keeps its current URL.
   */
  setWebhookUrls(urls: WebhookUrls): Promise<void>;
  close(): Promise<void>;
};

/** Starts every provider emulator on its own port. To add one: start it below and describe it in the result. */
export async function startEmulators(options: StartEmulatorsOptions = {}): Promise<RunningEmulators> {
  const started: StartedEmulator[] = [];
  const start = async (
    create: EmulatorFactory,
    port: number | undefined,
    protocol: 'http' | 'https' = 'http',
  ) => {
    const emulator = await startEmulator(create, {
      host: options.host ?? 'localhost',
      port: port ?? 0,
      logger: options.logger ?? false,
      protocol,
    });
    started.push(emulator);
    return emulator;
  };

  try {
    const google = await start(
      (base) => createGoogleIdentityEmulator({ ...base, clients: [SANDBOX_GOOGLE_CLIENT] }),
      options.ports?.google,
    );
    const facebook = await start(
      (base) => createFacebookEmulator({ ...base, apps: [SANDBOX_FACEBOOK_APP] }),
      options.ports?.facebook,
    );
    const todoist = await start(
      (base) =>
        createTodoistEmulator({
          ...base,
          app: { ...SANDBOX_TODOIST_APP, name: 'Timeboxer' },
          webhookUrl: options.webhookUrls?.todoist,
          webhookRetrySeconds: options.todoistWebhookRetrySeconds,
          defaultTimeZone: options.defaultTimeZone,
        }),
      options.ports?.todoist,
    );
    const googleCalendar = await start(
      (base) =>
        createGoogleCalendarEmulator({
          ...base,
          clients: [{ ...SANDBOX_GOOGLE_CLIENT, name: 'Timeboxer' }],
          defaultTimeZone: options.defaultTimeZone,
        }),
      options.ports?.googleCalendar,
    );
    const certificate = await ensureLocalCertificate(options.certificateDir ?? DEFAULT_CERTIFICATE_DIR);
    trustCertificate(certificate.caPem);
    const microsoft = await start(
      (base) =>
        createMicrosoftEmulator({
          ...base,
          tls: { key: certificate.key, cert: certificate.cert },
          clients: [{ ...SANDBOX_MICROSOFT_APP, name: 'Timeboxer' }],
          defaultTimeZone: options.defaultTimeZone,
        }),
      options.ports?.microsoft,
      'https',
    );
    // The consent page a browser opens, over plain HTTP; everything else stays on the HTTPS origin.
    const microsoftConsent = await start(
      () => createMicrosoftConsentFront({ target: () => microsoft.origin }),
      options.ports?.microsoftConsent,
    );
    const stripe = await start(
      (base) => createStripeEmulator({ ...base, webhookUrl: options.webhookUrls?.stripe }),
      options.ports?.stripe,
    );
    let smtpUrl = '';
    const mail = await start(
      (base) =>
        createMailEmulator({
          ...base,
          smtpHost: options.host ?? 'localhost',
          smtpPort: options.ports?.smtp ?? 0,
          onSmtpListening: (url) => {
            smtpUrl = url;
          },
        }),
      options.ports?.mail,
    );
    let closing: Promise<void> | undefined;
    return {
      google: { issuer: google.origin, origin: google.origin, ...SANDBOX_GOOGLE_CLIENT },
      facebook: {
        dialogUrl: `${facebook.origin}/${FACEBOOK_GRAPH_VERSION}/dialog/oauth`,
        graphUrl: `${facebook.origin}/${FACEBOOK_GRAPH_VERSION}`,
        origin: facebook.origin,
        ...SANDBOX_FACEBOOK_APP,
      },
      todoist: { origin: todoist.origin, ...SANDBOX_TODOIST_APP },
      googleCalendar: {
        origin: googleCalendar.origin,
        apiRootUrl: `${googleCalendar.origin}/`,
        authUrl: `${googleCalendar.origin}/o/oauth2/v2/auth`,
        tokenUrl: `${googleCalendar.origin}/token`,
        revokeUrl: `${googleCalendar.origin}/revoke`,
        ...SANDBOX_GOOGLE_CLIENT,
      },
      microsoft: {
        origin: microsoft.origin,
        authorizeUrl: `${microsoftConsent.origin}/common/oauth2/v2.0/authorize`,
        consentOrigin: microsoftConsent.origin,
        tokenUrl: `${microsoft.origin}/common/oauth2/v2.0/token`,
        graphBaseUrl: microsoft.origin,
        caPath: certificate.caPath,
        ...SANDBOX_MICROSOFT_APP,
      },
      stripe: {
        origin: stripe.origin,
        secretKey: SANDBOX_STRIPE_SECRET_KEY,
        webhookSecret: SANDBOX_STRIPE_WEBHOOK_SECRET,
      },
      mail: { origin: mail.origin, smtpUrl },
      setWebhookUrls: async (urls) => {
        if (urls.todoist !== undefined) await configureWebhook(todoist, urls.todoist);
        if (urls.stripe !== undefined) await configureWebhook(stripe, urls.stripe);
      },
      close: () => {
        closing ??= closeAll(started);
        return closing;
      },
    };
  } catch (error) {
    await closeAll(started);
    throw error;
  }
}

/** Through the emulator's own control route (in-process, no socket), so both paths stay one. */
async function configureWebhook(emulator: StartedEmulator, url: string): Promise<void> {
  const response = await emulator.app.inject({
    method: 'POST',
    url: '/_emulator/webhook',
    payload: { url, keepOnReset: true },
  });
  if (response.statusCode !== 200) {
    throw new Error(`Could not set the webhook URL of ${emulator.origin}: ${response.body}`);
  }
}

async function closeAll(started: readonly StartedEmulator[]): Promise<void> {
  const results = await Promise.allSettled(started.map(({ app }) => app.close()));
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}

import type { RunningEmulators } from '#emulators/index.ts';
import type { Config } from '../config.ts';

/** Sandbox mode: the configuration pointed at the running provider emulators instead of the real APIs. */
export function withEmulators(config: Config, emulators: RunningEmulators): Config {
  return {
    ...config,
    mail: { ...config.mail, smtpUrl: emulators.mail.smtpUrl },
    google: {
      issuer: emulators.google.issuer,
      clientId: emulators.google.clientId,
      clientSecret: emulators.google.clientSecret,
    },
    facebook: {
      dialogUrl: emulators.facebook.dialogUrl,
      graphUrl: emulators.facebook.graphUrl,
      appId: emulators.facebook.appId,
      appSecret: emulators.facebook.appSecret,
    },
    stripe: {
      secretKey: emulators.stripe.secretKey,
      webhookSecret: emulators.stripe.webhookSecret,
      apiUrl: emulators.stripe.origin,
      redirectOrigins: [emulators.stripe.origin],
    },
    todoist: {
      clientId: emulators.todoist.clientId,
      clientSecret: emulators.todoist.clientSecret,
      oauthUrl: emulators.todoist.origin,
      apiUrl: emulators.todoist.origin,
    },
    googleCalendar: {
      clientId: emulators.googleCalendar.clientId,
      clientSecret: emulators.googleCalendar.clientSecret,
      authorizationUrl: emulators.googleCalendar.authUrl,
      tokenUrl: emulators.googleCalendar.tokenUrl,
      revokeUrl: emulators.googleCalendar.revokeUrl,
      apiUrl: emulators.googleCalendar.apiRootUrl,
    },
    microsoft: {
      clientId: emulators.microsoft.clientId,
      clientSecret: emulators.microsoft.clientSecret,
      authorityUrl: `${emulators.microsoft.origin}/common`,
      browserAuthorityUrl: `${emulators.microsoft.consentOrigin}/common`,
      graphUrl: emulators.microsoft.graphBaseUrl,
    },
  };
}

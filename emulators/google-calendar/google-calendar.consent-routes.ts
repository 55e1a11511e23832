import type { FastifyInstance } from 'fastify';
import { registerGoogleConsent } from '../shared/oauth/google-consent.ts';
import type { GoogleOAuth } from '../shared/oauth/google-oauth.ts';
import type { GoogleCalendarClient } from './google-calendar.emulator.ts';
import { describeScopes, formatScopes, hasCalendarScope, parseScopes } from './google-calendar.scopes.ts';
import type { CalendarStore } from './google-calendar.store.ts';

type ConsentContext = {
  oauth: GoogleOAuth;
  calendars: CalendarStore;
  clients: ReadonlyMap<string, GoogleCalendarClient>;
};

/** The OAuth consent for calendar scopes: the account form, then a redirect with a code or `access_denied`. */
export function registerConsentRoutes(app: FastifyInstance, context: ConsentContext): void {
  registerGoogleConsent(app, {
    oauth: context.oauth,
    clients: context.clients,
    title: 'Google Calendar access (sandbox)',
    alsoCarried: ['include_granted_scopes'],
    readScopes: (scope) => {
      const parsed = parseScopes(scope);
      if ('unknown' in parsed) return { invalid: `Some requested scopes were invalid: ${parsed.unknown}` };
      if (!hasCalendarScope(parsed.scopes)) {
        return { invalid: 'This emulator grants Google Calendar scopes; none was requested.' };
      }
      return parsed;
    },
    formatScope: formatScopes,
    subtitle: ({ client, scopes }) =>
      `${client.name ?? client.clientId} wants to access your Google Account: ${describeScopes(scopes).join('; ')}.`,
    account: (email, name) => context.calendars.ensureAccount(email.toLowerCase(), name).email,
  });
}

import { calendar } from '@googleapis/calendar';
import { CodeChallengeMethod, type Credentials, OAuth2Client } from 'google-auth-library';
import type { GoogleCalendarConfig } from '#server/config.ts';
import {
  type CalendarGateway,
  type CalendarProfile,
  GrantRevokedError,
  ProviderRequestError,
  type ProviderTokens,
  ProviderUnauthorizedError,
} from '#server/domain/integrations/integration-providers.port.ts';
import { storableText } from '#shared/validation/storable-text.ts';
import { checkCallback, pkceChallenge } from '../shared/oauth-callback.ts';
import { calendarListSchema } from './google-calendar.schemas.ts';

export const GOOGLE_CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar';
const PAGE_SIZE = 250;

/** Google Calendar through google-auth-library and @googleapis/calendar; real or emulated, by config. */
export function createGoogleCalendarGateway(config: GoogleCalendarConfig): CalendarGateway {
  const oauth = (redirectUri?: string) =>
    new OAuth2Client({
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      redirectUri,
      endpoints: {
        oauth2AuthBaseUrl: config.authorizationUrl,
        oauth2TokenUrl: config.tokenUrl,
        oauth2RevokeUrl: config.revokeUrl,
      },
    });

  return {
    async authorizationUrl(flow, redirectUri) {
      return new URL(
        oauth(redirectUri).generateAuthUrl({
          scope: [GOOGLE_CALENDAR_SCOPE],
          // Offline access with forced consent: Google sends a refresh token only then.
          access_type: 'offline',
          // Another account: Google's account chooser first (`select_account`), then consent.
          prompt: flow.anotherAccount ? 'select_account consent' : 'consent',
          state: flow.state,
          code_challenge: pkceChallenge(flow.codeVerifier),
          code_challenge_method: CodeChallengeMethod.S256,
          ...(flow.loginHint ? { login_hint: flow.loginHint } : {}),
        }),
      );
    },

    async exchange(callbackUrl, flow, redirectUri) {
      const code = checkCallback(callbackUrl, flow, 'Google');
      let credentials: Credentials;
      try {
        ({ tokens: credentials } = await oauth(redirectUri).getToken({
          code,
          codeVerifier: flow.codeVerifier,
          redirect_uri: redirectUri,
        }));
      } catch (error) {
        throw failure('Google code exchange failed', error);
      }
      // With granular consent the user may untick calendar access; without it we can do nothing.
      if (credentials.scope && !credentials.scope.split(' ').includes(GOOGLE_CALENDAR_SCOPE)) {
        throw new ProviderRequestError('Google consent did not grant calendar access');
      }
      return toTokens(credentials, null);
    },

    async refresh(refreshToken) {
      const client = oauth();
      client.setCredentials({ refresh_token: refreshToken });
      try {
        await client.getAccessToken();
      } catch (error) {
        if (oauthErrorOf(error) === 'invalid_grant') {
          throw new GrantRevokedError('Google refused the refresh token');
        }
        throw failure('Google token refresh failed', error);
      }
      return toTokens(client.credentials, refreshToken);
    },

    async revoke({ accessToken, refreshToken }) {
      try {
        // Revoking either token ends the whole grant; the refresh token outlives the access token.
        await oauth().revokeToken(refreshToken ?? accessToken);
      } catch (error) {
        // Already revoked or expired: the grant is gone, which is what we wanted.
        if (oauthErrorOf(error) === 'invalid_token') return;
        throw failure('Google revocation failed', error);
      }
    },

    async profile(accessToken): Promise<CalendarProfile> {
      const client = oauth();
      client.setCredentials({ access_token: accessToken });
      const api = calendar({ version: 'v3', auth: client, rootUrl: config.apiUrl });
      const entries: CalendarProfile['calendars'] = [];
      let accountId: string | null = null;
      let pageToken: string | undefined;
      try {
        do {
          const response = await api.calendarList.list({ maxResults: PAGE_SIZE, pageToken });
          const page = calendarListSchema.parse(response.data);
          for (const entry of page.items) {
            if (entry.primary) accountId = entry.id;
            entries.push({
              id: entry.id,
              name: storableText(entry.summaryOverride ?? entry.summary ?? entry.id),
              color: entry.backgroundColor ?? null,
              timeZone: entry.timeZone ?? null,
              primary: entry.primary === true,
              readOnly: entry.accessRole === 'reader' || entry.accessRole === 'freeBusyReader',
            });
          }
          pageToken = page.nextPageToken ?? undefined;
        } while (pageToken);
      } catch (error) {
        if (statusOf(error) === 401) throw new ProviderUnauthorizedError('Google refused the access token');
        throw failure('Could not read the Google calendar list', error);
      }
      // The primary calendar's id is the account's e-mail address.
      return { accountId, email: accountId, calendars: entries, categories: [] };
    },
  };
}

function toTokens(credentials: Credentials, previousRefreshToken: string | null): ProviderTokens {
  if (!credentials.access_token) throw new ProviderRequestError('Google answered without an access token');
  return {
    accessToken: credentials.access_token,
    refreshToken: credentials.refresh_token ?? previousRefreshToken,
    expiresAt: credentials.expiry_date ? new Date(credentials.expiry_date) : null,
  };
}

type GaxiosLike = { status?: number; response?: { status?: number; data?: unknown } };

function statusOf(error: unknown): number | undefined {
  const e = error as GaxiosLike | null;
  return e?.response?.status ?? e?.status;
}

/** The OAuth `error` code of a token-endpoint answer (invalid_grant, invalid_token, ...). */
function oauthErrorOf(error: unknown): string | undefined {
  const data = (error as GaxiosLike | null)?.response?.data;
  if (typeof data !== 'object' || data === null || !('error' in data)) return undefined;
  return typeof data.error === 'string' ? data.error.slice(0, 60) : undefined;
}

/** Our error without the SDK's, whose properties hold the request (tokens, client secret). */
function failure(message: string, error: unknown): ProviderRequestError {
  const code = oauthErrorOf(error);
  const status = statusOf(error);
  const reason = status === undefined ? `: ${(error as Error)?.name ?? 'error'}` : '';
  return new ProviderRequestError(`${message}${code ? ` [${code}]` : ''}${reason}`, status);
}

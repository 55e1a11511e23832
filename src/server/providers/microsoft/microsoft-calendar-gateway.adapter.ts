import { Client, GraphError } from '@microsoft/microsoft-graph-client';
import type { z } from 'zod';
import type { MicrosoftConfig } from '#server/config.ts';
import {
  type CalendarGateway,
  type CalendarProfile,
  GrantRevokedError,
  ProviderRequestError,
  type ProviderTokens,
  ProviderUnauthorizedError,
} from '#server/domain/integrations/integration-providers.port.ts';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import { storableText } from '#shared/validation/storable-text.ts';
import { checkCallback, pkceChallenge } from '../shared/oauth-callback.ts';
import {
  calendarPageSchema,
  categoryPageSchema,
  meSchema,
  tokenErrorSchema,
  tokenResponseSchema,
} from './microsoft.schemas.ts';

export const MICROSOFT_SCOPES = 'offline_access User.Read Calendars.ReadWrite MailboxSettings.ReadWrite';
const PAGE_SIZE = 100;

/**
 * Microsoft 365: identity platform v2 (authorization code + PKCE, plain HTTP as the protocol is small)
 * and Microsoft Graph through the official client; real or emulated, by config.
 */
export function createMicrosoftCalendarGateway(config: MicrosoftConfig, clock: Clock): CalendarGateway {
  async function token(params: Record<string, string>): Promise<ProviderTokens> {
    let response: Response;
    try {
      response = await fetch(`${config.authorityUrl}/oauth2/v2.0/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          client_id: config.clientId,
          client_secret: config.clientSecret,
          scope: MICROSOFT_SCOPES,
          ...params,
        }),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      throw new ProviderRequestError(`Microsoft token endpoint unreachable: ${(error as Error).name}`);
    }
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = tokenErrorSchema.safeParse(body);
      const code = error.success ? error.data.error.slice(0, 60) : 'unreadable answer';
      if (code === 'invalid_grant' && params.grant_type === 'refresh_token') {
        throw new GrantRevokedError('Microsoft refused the refresh token');
      }
      throw new ProviderRequestError(`Microsoft token request failed [${code}]`, response.status);
    }
    const parsed = tokenResponseSchema.safeParse(body);
    if (!parsed.success) throw new ProviderRequestError('Microsoft token answer is not as expected');
    return {
      accessToken: parsed.data.access_token,
      refreshToken: parsed.data.refresh_token ?? null,
      expiresAt: new Date(clock().getTime() + parsed.data.expires_in * 1000),
    };
  }

  const graph = (accessToken: string) =>
    Client.initWithMiddleware({
      authProvider: { getAccessToken: async () => accessToken },
      baseUrl: config.graphUrl,
      // The client attaches the token only to Graph's own hosts and these (the emulator's).
      customHosts: new Set([new URL(config.graphUrl).hostname]),
    });

  type Page<T> = { value: T[]; '@odata.nextLink'?: string };
  async function allPages<T>(client: Client, first: Promise<unknown>, schema: z.ZodType<Page<T>>) {
    const items: T[] = [];
    let page = schema.parse(await first);
    items.push(...page.value);
    while (page['@odata.nextLink']) {
      page = schema.parse(await client.api(page['@odata.nextLink']).get());
      items.push(...page.value);
    }
    return items;
  }

  return {
    async authorizationUrl(flow, redirectUri) {
      const url = new URL(`${config.browserAuthorityUrl ?? config.authorityUrl}/oauth2/v2.0/authorize`);
      url.search = new URLSearchParams({
        client_id: config.clientId,
        response_type: 'code',
        response_mode: 'query',
        redirect_uri: redirectUri,
        scope: MICROSOFT_SCOPES,
        state: flow.state,
        code_challenge: pkceChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
        prompt: 'select_account',
        ...(flow.loginHint ? { login_hint: flow.loginHint } : {}),
      }).toString();
      return url;
    },

    async exchange(callbackUrl, flow, redirectUri) {
      const code = checkCallback(callbackUrl, flow, 'Microsoft');
      return token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: flow.codeVerifier,
      });
    },

    refresh: (refreshToken) => token({ grant_type: 'refresh_token', refresh_token: refreshToken }),

    // The identity platform has no per-app revocation: dropping our tokens is all there is to do.
    async revoke() {},

    async profile(accessToken): Promise<CalendarProfile> {
      const client = graph(accessToken);
      try {
        const [me, calendars, categories] = await Promise.all([
          client
            .api('/me')
            .select('id,mail,userPrincipalName')
            .get()
            .then((body: unknown) => meSchema.parse(body)),
          allPages(client, client.api('/me/calendars').top(PAGE_SIZE).get(), calendarPageSchema),
          allPages(client, client.api('/me/outlook/masterCategories').get(), categoryPageSchema),
        ]);
        return {
          accountId: me.id,
          email: me.mail ?? me.userPrincipalName ?? null,
          // Outlook names its calendar colours (auto, lightBlue, ...); the web app maps them to shades.
          calendars: calendars.map((entry) => ({
            id: entry.id,
            name: storableText(entry.name),
            color: entry.color ?? null,
            timeZone: null,
            primary: entry.isDefaultCalendar === true,
            readOnly: entry.canEdit === false,
          })),
          categories: categories.map(({ id, displayName, color }) => ({
            id,
            displayName: storableText(displayName),
            color,
          })),
        };
      } catch (error) {
        if (error instanceof GraphError && error.statusCode === 401) {
          throw new ProviderUnauthorizedError('Microsoft refused the access token');
        }
        const status = error instanceof GraphError ? error.statusCode : undefined;
        const code = error instanceof GraphError ? ` [${String(error.code).slice(0, 60)}]` : '';
        throw new ProviderRequestError(`Could not read the Microsoft calendars${code}`, status);
      }
    },
  };
}

import type { FastifyInstance, FastifyReply } from 'fastify';
import { readParams } from '../shared/params.ts';
import { type PkceMethod, parsePkceMethod } from '../shared/pkce.ts';
import { appendQuery, parseRedirectUri } from '../shared/redirect-uri.ts';
import { renderErrorPage, renderSignInPage } from '../shared/sign-in-page.ts';
import type { GoogleCalendarClient } from './google-calendar.emulator.ts';
import type { OAuthStore } from './google-calendar.oauth-store.ts';
import { describeScopes, formatScopes, hasCalendarScope, parseScopes } from './google-calendar.scopes.ts';
import type { CalendarStore } from './google-calendar.store.ts';

const AUTHORIZE_PATH = '/o/oauth2/v2/auth';
const PAGE_TITLE = 'Google Calendar access (sandbox)';
const DEFAULT_EMAIL = 'ada.lovelace@example.com';
const DEFAULT_NAME = 'Ada Lovelace';
// The request parameters the consent form carries from the GET to the POST.
const CARRIED_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'access_type',
  'prompt',
  'include_granted_scopes',
] as const;

type ConsentRequest = {
  client: GoogleCalendarClient;
  redirectUri: string;
  scopes: string[];
  state: string | undefined;
  codeChallenge: string | undefined;
  codeChallengeMethod: PkceMethod | undefined;
  offline: boolean;
  consentPrompted: boolean;
};

type Validation = { ok: true; request: ConsentRequest } | { ok: false; error: string; message: string };

type ConsentContext = {
  oauth: OAuthStore;
  calendars: CalendarStore;
  clients: ReadonlyMap<string, GoogleCalendarClient>;
};

/** The OAuth consent for calendar scopes: the account form, then a redirect with a code or `access_denied`. */
export function registerConsentRoutes(app: FastifyInstance, context: ConsentContext): void {
  app.get(AUTHORIZE_PATH, async (request, reply) => {
    const params = readParams(request.query);
    const validation = validateConsentRequest(params, context.clients);
    if (!validation.ok) return sendErrorPage(reply, validation);
    const { client, scopes } = validation.request;
    const html = renderSignInPage({
      brand: 'google',
      title: PAGE_TITLE,
      subtitle: `${client.name ?? client.clientId} wants to access your Google Account: ${describeScopes(scopes).join('; ')}.`,
      action: AUTHORIZE_PATH,
      hiddenFields: Object.fromEntries(CARRIED_PARAMS.map((name) => [name, params[name]])),
      email: params.login_hint || DEFAULT_EMAIL,
      name: DEFAULT_NAME,
    });
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
  });

  app.post(AUTHORIZE_PATH, async (request, reply) => {
    const params = readParams(request.body);
    const validation = validateConsentRequest(params, context.clients);
    if (!validation.ok) return sendErrorPage(reply, validation);
    const consent = validation.request;
    if (params.decision === 'cancel') {
      return reply.redirect(
        appendQuery(consent.redirectUri, { error: 'access_denied', state: consent.state }),
      );
    }
    const email = (params.email ?? '').trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      return sendErrorPage(reply, { error: 'invalid_request', message: 'Enter a valid e-mail address.' });
    }
    const account = context.calendars.ensureAccount(email, (params.name ?? '').trim());
    const code = context.oauth.issueCode({
      clientId: consent.client.clientId,
      redirectUri: consent.redirectUri,
      scopes: consent.scopes,
      codeChallenge: consent.codeChallenge,
      codeChallengeMethod: consent.codeChallengeMethod,
      offline: consent.offline,
      consentPrompted: consent.consentPrompted,
      email: account.email,
    });
    const location = appendQuery(consent.redirectUri, {
      state: consent.state,
      code,
      scope: formatScopes(consent.scopes),
      authuser: '0',
      prompt: 'consent',
    });
    return reply.redirect(location);
  });
}

function validateConsentRequest(
  params: Record<string, string>,
  clients: ReadonlyMap<string, GoogleCalendarClient>,
): Validation {
  const fail = (error: string, message: string): Validation => ({ ok: false, error, message });
  const client = clients.get(params.client_id ?? '');
  if (!client) return fail('invalid_client', 'The OAuth client was not found.');
  if (!params.redirect_uri) return fail('invalid_request', 'Missing required parameter: redirect_uri');
  if (!parseRedirectUri(params.redirect_uri)) {
    return fail('invalid_request', `Invalid parameter value for redirect_uri: ${params.redirect_uri}`);
  }
  if (client.redirectUris && !client.redirectUris.includes(params.redirect_uri)) {
    return fail('redirect_uri_mismatch', `The redirect URI ${params.redirect_uri} is not registered.`);
  }
  if (!params.response_type) return fail('invalid_request', 'Missing required parameter: response_type');
  if (params.response_type !== 'code') {
    return fail('unsupported_response_type', `Unsupported response_type: ${params.response_type}`);
  }
  if (!params.scope) return fail('invalid_request', 'Missing required parameter: scope');
  const parsed = parseScopes(params.scope);
  if ('unknown' in parsed)
    return fail('invalid_scope', `Some requested scopes were invalid: ${parsed.unknown}`);
  if (!hasCalendarScope(parsed.scopes)) {
    return fail('invalid_scope', 'This emulator grants Google Calendar scopes; none was requested.');
  }
  const codeChallengeMethod = params.code_challenge
    ? parsePkceMethod(params.code_challenge_method)
    : undefined;
  if (params.code_challenge && !codeChallengeMethod) {
    return fail('invalid_request', `Invalid code_challenge_method: ${params.code_challenge_method}`);
  }
  if (!params.code_challenge && params.code_challenge_method) {
    return fail('invalid_request', 'code_challenge_method was given without a code_challenge.');
  }
  return {
    ok: true,
    request: {
      client,
      redirectUri: params.redirect_uri,
      scopes: parsed.scopes,
      state: params.state,
      codeChallenge: params.code_challenge,
      codeChallengeMethod,
      offline: params.access_type === 'offline',
      consentPrompted: (params.prompt ?? '').split(/\s+/).includes('consent'),
    },
  };
}

function sendErrorPage(reply: FastifyReply, failure: { error: string; message: string }) {
  const html = renderErrorPage({
    brand: 'google',
    title: PAGE_TITLE,
    heading: `Error 400: ${failure.error}`,
    message: failure.message,
  });
  return reply.code(400).type('text/html; charset=utf-8').send(html);
}

import type { FastifyInstance, FastifyReply } from 'fastify';
import { readParams } from '../shared/params.ts';
import { type PkceMethod, parsePkceMethod } from '../shared/pkce.ts';
import { appendQuery, parseRedirectUri } from '../shared/redirect-uri.ts';
import { renderErrorPage, renderSignInPage } from '../shared/sign-in-page.ts';
import { formatGrantedScope, parseScopes } from './google-identity.claims.ts';
import type { GoogleClient } from './google-identity.emulator.ts';
import type { GoogleIdentityStore } from './google-identity.store.ts';

const AUTHORIZE_PATH = '/o/oauth2/v2/auth';
const PAGE_TITLE = 'Sign in with Google (sandbox)';
const DEFAULT_EMAIL = 'ada.lovelace@example.com';
const DEFAULT_NAME = 'Ada Lovelace';
// The request parameters the sign-in form carries from the GET to the POST.
const CARRIED_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'access_type',
  'prompt',
] as const;

type AuthorizeRequest = {
  client: GoogleClient;
  redirectUri: string;
  scopes: string[];
  state: string | undefined;
  nonce: string | undefined;
  codeChallenge: string | undefined;
  codeChallengeMethod: PkceMethod | undefined;
  offline: boolean;
  consentPrompted: boolean;
};

type Validation = { ok: true; request: AuthorizeRequest } | { ok: false; error: string; message: string };

export function registerAuthorizeRoutes(
  app: FastifyInstance,
  store: GoogleIdentityStore,
  clients: ReadonlyMap<string, GoogleClient>,
): void {
  app.get(AUTHORIZE_PATH, async (request, reply) => {
    const params = readParams(request.query);
    const validation = validateAuthorizeRequest(params, clients);
    if (!validation.ok) return sendErrorPage(reply, validation);
    const hiddenFields = Object.fromEntries(CARRIED_PARAMS.map((name) => [name, params[name]]));
    const html = renderSignInPage({
      brand: 'google',
      title: PAGE_TITLE,
      subtitle: `to continue to ${validation.request.client.name ?? validation.request.client.clientId}`,
      action: AUTHORIZE_PATH,
      hiddenFields,
      email: params.login_hint || DEFAULT_EMAIL,
      name: DEFAULT_NAME,
    });
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
  });

  app.post(AUTHORIZE_PATH, async (request, reply) => {
    const params = readParams(request.body);
    const validation = validateAuthorizeRequest(params, clients);
    if (!validation.ok) return sendErrorPage(reply, validation);
    const authorize = validation.request;

    if (params.decision === 'cancel') {
      return reply.redirect(
        appendQuery(authorize.redirectUri, { error: 'access_denied', state: authorize.state }),
      );
    }
    const email = (params.email ?? '').trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      return sendErrorPage(reply, { error: 'invalid_request', message: 'Enter a valid e-mail address.' });
    }
    const user = store.upsertUser(email, (params.name ?? '').trim() || email.split('@')[0] || email);
    const code = store.issueCode({
      clientId: authorize.client.clientId,
      redirectUri: authorize.redirectUri,
      scopes: authorize.scopes,
      nonce: authorize.nonce,
      codeChallenge: authorize.codeChallenge,
      codeChallengeMethod: authorize.codeChallengeMethod,
      offline: authorize.offline,
      consentPrompted: authorize.consentPrompted,
      sub: user.sub,
    });
    const location = appendQuery(authorize.redirectUri, {
      state: authorize.state,
      code,
      scope: formatGrantedScope(authorize.scopes),
      authuser: '0',
      prompt: 'consent',
    });
    return reply.redirect(location);
  });
}

function validateAuthorizeRequest(
  params: Record<string, string>,
  clients: ReadonlyMap<string, GoogleClient>,
): Validation {
  const fail = (error: string, message: string): Validation => ({ ok: false, error, message });
  const client = clients.get(params.client_id ?? '');
  if (!client) return fail('invalid_client', 'The OAuth client was not found.');
  if (!params.redirect_uri) return fail('invalid_request', 'Missing required parameter: redirect_uri');
  if (!parseRedirectUri(params.redirect_uri)) {
    return fail('invalid_request', `Invalid parameter value for redirect_uri: ${params.redirect_uri}`);
  }
  if (!params.response_type) return fail('invalid_request', 'Missing required parameter: response_type');
  if (params.response_type !== 'code') {
    return fail('unsupported_response_type', `Unsupported response_type: ${params.response_type}`);
  }
  if (!params.scope) return fail('invalid_request', 'Missing required parameter: scope');
  const scopes = parseScopes(params.scope);
  if (!scopes.includes('openid')) return fail('invalid_scope', 'This emulator requires the openid scope.');
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
      scopes,
      state: params.state,
      nonce: params.nonce,
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

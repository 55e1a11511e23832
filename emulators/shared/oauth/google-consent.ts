import type { FastifyInstance, FastifyReply } from 'fastify';
import { renderErrorPage, renderSignInPage } from '../sign-in-page.ts';
import { type ConsentValidation, registerConsentFlow, sendErrorPage } from './consent-flow.ts';
import type { GoogleOAuth, GoogleOAuthClient } from './google-oauth.ts';
import type { PkceChallenge } from './pkce.ts';
import { readPkceChallenge } from './pkce.ts';
import { appendQuery, checkRedirectUri } from './redirect-uri.ts';

const AUTHORIZE_PATH = '/o/oauth2/v2/auth';
const DEFAULT_ACCOUNT = { email: 'ada.lovelace@example.com', name: 'Ada Lovelace' };
// The request parameters the form carries from the GET to the POST, besides an emulator's own.
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
];

type GoogleFailure = { error: string; message: string };

export type GoogleAuthorizeRequest<C extends GoogleOAuthClient> = {
  client: C;
  redirectUri: string;
  scopes: string[];
  state: string | undefined;
  nonce: string | undefined;
  pkce: PkceChallenge | undefined;
  offline: boolean;
  consentPrompted: boolean;
};

export type GoogleConsentOptions<C extends GoogleOAuthClient> = {
  oauth: GoogleOAuth;
  clients: ReadonlyMap<string, C>;
  title: string;
  /** Parameters the form carries besides Google's usual ones (sign-in's `nonce`). */
  alsoCarried: readonly string[];
  /** The requested scopes in their short form, or why Google would refuse them (`invalid_scope`). */
  readScopes: (scope: string) => { scopes: string[] } | { invalid: string };
  formatScope: (scopes: readonly string[]) => string;
  subtitle: (request: GoogleAuthorizeRequest<C>) => string;
  /** Makes (or finds) the account the form names; returns the key its grants are stored under. */
  account: (email: string, name: string) => string;
};

/** accounts.google.com's authorization page: the account form, then a redirect with a code or `access_denied`. */
export function registerGoogleConsent<C extends GoogleOAuthClient>(
  app: FastifyInstance,
  options: GoogleConsentOptions<C>,
): void {
  const sendFailure = (reply: FastifyReply, failure: GoogleFailure) =>
    sendErrorPage(
      reply,
      renderErrorPage({
        brand: 'google',
        title: options.title,
        heading: `Error 400: ${failure.error}`,
        message: failure.message,
      }),
    );
  registerConsentFlow<GoogleAuthorizeRequest<C>, GoogleFailure>(app, {
    path: AUTHORIZE_PATH,
    carriedParams: [...CARRIED_PARAMS, ...options.alsoCarried],
    defaultAccount: DEFAULT_ACCOUNT,
    loginHint: true,
    validate: (params) => validateGoogleAuthorize(params, options),
    renderPage: (request, form) =>
      renderSignInPage({
        brand: 'google',
        title: options.title,
        subtitle: options.subtitle(request),
        ...form,
      }),
    sendFailure,
    declined: (request, reply) =>
      reply.redirect(appendQuery(request.redirectUri, { error: 'access_denied', state: request.state })),
    invalidEmail: { error: 'invalid_request', message: 'Enter a valid e-mail address.' },
    approve: (request, person) => {
      const code = options.oauth.codes.issue({
        clientId: request.client.clientId,
        redirectUri: request.redirectUri,
        scopes: request.scopes,
        nonce: request.nonce,
        pkce: request.pkce,
        offline: request.offline,
        consentPrompted: request.consentPrompted,
        account: options.account(person.email, person.name),
      });
      return appendQuery(request.redirectUri, {
        state: request.state,
        code,
        scope: options.formatScope(request.scopes),
        authuser: '0',
        prompt: 'consent',
      });
    },
  });
}

function validateGoogleAuthorize<C extends GoogleOAuthClient>(
  params: Record<string, string>,
  options: GoogleConsentOptions<C>,
): ConsentValidation<GoogleAuthorizeRequest<C>, GoogleFailure> {
  const fail = (error: string, message: string) => ({ ok: false as const, failure: { error, message } });
  const client = options.clients.get(params.client_id ?? '');
  if (!client) return fail('invalid_client', 'The OAuth client was not found.');
  const redirect = checkRedirectUri(params.redirect_uri, client.redirectUris);
  if (redirect === 'missing') return fail('invalid_request', 'Missing required parameter: redirect_uri');
  if (redirect === 'invalid') {
    return fail('invalid_request', `Invalid parameter value for redirect_uri: ${params.redirect_uri}`);
  }
  if (redirect === 'unregistered') {
    return fail('redirect_uri_mismatch', `The redirect URI ${params.redirect_uri} is not registered.`);
  }
  if (!params.response_type) return fail('invalid_request', 'Missing required parameter: response_type');
  if (params.response_type !== 'code') {
    return fail('unsupported_response_type', `Unsupported response_type: ${params.response_type}`);
  }
  if (!params.scope) return fail('invalid_request', 'Missing required parameter: scope');
  const scopes = options.readScopes(params.scope);
  if ('invalid' in scopes) return fail('invalid_scope', scopes.invalid);
  const pkce = readPkceChallenge(params);
  if (!pkce.ok && pkce.problem === 'unknown_method') {
    return fail('invalid_request', `Invalid code_challenge_method: ${params.code_challenge_method}`);
  }
  if (!pkce.ok) return fail('invalid_request', 'code_challenge_method was given without a code_challenge.');
  return {
    ok: true,
    request: {
      client,
      redirectUri: params.redirect_uri ?? '',
      scopes: scopes.scopes,
      state: params.state,
      nonce: params.nonce,
      pkce: pkce.pkce,
      offline: params.access_type === 'offline',
      consentPrompted: (params.prompt ?? '').split(/\s+/).includes('consent'),
    },
  };
}

import type { FastifyInstance, FastifyReply } from 'fastify';
import { type ConsentValidation, registerConsentFlow, sendErrorPage } from '../shared/oauth/consent-flow.ts';
import { type PkceChallenge, readPkceChallenge } from '../shared/oauth/pkce.ts';
import { appendQuery, checkRedirectUri } from '../shared/oauth/redirect-uri.ts';
import { renderErrorPage, renderSignInPage } from '../shared/sign-in-page.ts';
import type { MicrosoftClient } from './microsoft.emulator.ts';
import type { IdentityStore } from './microsoft.identity-store.ts';
import type { MailboxStore } from './microsoft.mailbox-store.ts';
import { AadError, aadDescription, missingParameter } from './microsoft.oauth-errors.ts';
import { foreignScope, parseScopes } from './microsoft.scopes.ts';
import { resolveTenant } from './microsoft.tenants.ts';

const PAGE_TITLE = 'Sign in to your Microsoft account (sandbox)';
const CARRIED_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'response_mode',
  'scope',
  'state',
  'nonce',
  'prompt',
  'code_challenge',
  'code_challenge_method',
] as const;

type AuthorizeRequest = {
  client: MicrosoftClient;
  tenantId: string;
  redirectUri: string;
  scopes: string[];
  state: string | undefined;
  pkce: PkceChallenge | undefined;
};

/** Errors found before the redirect URI is trusted are shown on a page; later ones go back to the client. */
type Failure = { page: AadError } | { redirect: string; error: AadError; state: string | undefined };

type AuthorizeContext = {
  identity: IdentityStore;
  mailboxes: MailboxStore;
  clients: ReadonlyMap<string, MicrosoftClient>;
};

export function registerAuthorizeRoutes(app: FastifyInstance, context: AuthorizeContext): void {
  registerConsentFlow<AuthorizeRequest, Failure>(app, {
    path: '/:tenant/oauth2/v2.0/authorize',
    carriedParams: CARRIED_PARAMS,
    defaultAccount: { email: 'ada.lovelace@example.com', name: 'Ada Lovelace' },
    loginHint: true,
    validate: (params, request) =>
      validate((request.params as { tenant: string }).tenant, params, context.clients),
    beforePage: (authorize, params) =>
      (params.prompt ?? '') === 'none'
        ? {
            redirect: authorize.redirectUri,
            error: new AadError(
              400,
              'login_required',
              50058,
              'A silent sign-in request was sent but no user is signed in.',
            ),
            state: params.state,
          }
        : undefined,
    renderPage: ({ client, scopes }, form) =>
      renderSignInPage({
        brand: 'microsoft',
        title: PAGE_TITLE,
        subtitle: `${client.name ?? client.clientId} wants to: ${scopes.join(', ')}`,
        ...form,
      }),
    sendFailure,
    declined: (authorize, reply) =>
      sendFailure(reply, {
        redirect: authorize.redirectUri,
        error: new AadError(400, 'access_denied', 65004, 'User declined to consent to access the app.'),
        state: authorize.state,
      }),
    invalidEmail: { page: new AadError(400, 'invalid_request', 50034, 'Enter a valid email address.') },
    approve: (authorize, person) => {
      const user = context.mailboxes.ensureUser(person);
      const code = context.identity.codes.issue({
        clientId: authorize.client.clientId,
        redirectUri: authorize.redirectUri,
        scopes: authorize.scopes,
        pkce: authorize.pkce,
        userId: user.id,
        tenantId: authorize.tenantId,
      });
      return appendQuery(authorize.redirectUri, { code, state: authorize.state });
    },
  });
}

function validate(
  tenant: string,
  params: Record<string, string>,
  clients: ReadonlyMap<string, MicrosoftClient>,
): ConsentValidation<AuthorizeRequest, Failure> {
  const page = (error: AadError) => ({ ok: false as const, failure: { page: error } });
  const tenantId = resolveTenant(tenant);
  if (!tenantId) return page(new AadError(400, 'invalid_tenant', 90002, `Tenant '${tenant}' not found.`));
  if (!params.client_id) return page(missingParameter('client_id'));
  const client = clients.get(params.client_id);
  if (!client) {
    return page(
      new AadError(
        400,
        'unauthorized_client',
        700016,
        `Application with identifier '${params.client_id}' was not found in the directory '${tenant}'.`,
      ),
    );
  }
  const redirect = checkRedirectUri(params.redirect_uri, client.redirectUris);
  if (redirect === 'missing') return page(missingParameter('redirect_uri'));
  if (redirect !== 'ok') {
    return page(
      new AadError(
        400,
        'invalid_request',
        50011,
        `The redirect URI '${params.redirect_uri}' specified in the request does not match the redirect URIs configured for the application '${client.clientId}'.`,
      ),
    );
  }
  const back = (error: AadError) => ({
    ok: false as const,
    failure: { redirect: params.redirect_uri ?? '', error, state: params.state },
  });
  if (params.response_type !== 'code') {
    return back(
      new AadError(
        400,
        'unsupported_response_type',
        700054,
        `response_type '${params.response_type ?? ''}' is not enabled for the application.`,
      ),
    );
  }
  if (!params.scope) return back(missingParameter('scope'));
  const scopes = parseScopes(params.scope);
  const foreign = foreignScope(scopes);
  if (foreign) {
    return back(
      new AadError(
        400,
        'invalid_scope',
        70011,
        `The provided value for the input parameter 'scope' is not valid. The scope ${foreign} is not valid.`,
      ),
    );
  }
  // Microsoft does not object to a method without a challenge; it only checks a challenge's method.
  const pkce = readPkceChallenge(params);
  if (!pkce.ok && pkce.problem === 'unknown_method') {
    return back(
      new AadError(
        400,
        'invalid_request',
        501491,
        `Invalid code_challenge_method '${params.code_challenge_method}'.`,
      ),
    );
  }
  return {
    ok: true,
    request: {
      client,
      tenantId,
      redirectUri: params.redirect_uri ?? '',
      scopes,
      state: params.state,
      pkce: pkce.ok ? pkce.pkce : undefined,
    },
  };
}

function sendFailure(reply: FastifyReply, failure: Failure): FastifyReply {
  if ('page' in failure) {
    const { page } = failure;
    const heading = `AADSTS${page.aadCode}: ${page.error}`;
    return sendErrorPage(
      reply,
      renderErrorPage({ brand: 'microsoft', title: PAGE_TITLE, heading, message: page.message }),
    );
  }
  const { error } = failure;
  const description = aadDescription(error, reply.request.id, reply.request.id, new Date().toISOString());
  return reply.redirect(
    appendQuery(failure.redirect, {
      error: error.error,
      error_description: description,
      ...(error.aadCode === 65004 ? { error_subcode: 'cancel' } : {}),
      state: failure.state,
    }),
  );
}

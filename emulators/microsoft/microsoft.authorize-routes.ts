import type { FastifyInstance, FastifyReply } from 'fastify';
import { readParams } from '../shared/params.ts';
import { type PkceMethod, parsePkceMethod } from '../shared/pkce.ts';
import { appendQuery, parseRedirectUri } from '../shared/redirect-uri.ts';
import { renderConsentErrorPage, renderConsentPage } from './microsoft.consent-page.ts';
import type { MicrosoftClient } from './microsoft.emulator.ts';
import type { IdentityStore } from './microsoft.identity-store.ts';
import type { MailboxStore } from './microsoft.mailbox-store.ts';
import { AadError, aadDescription, missingParameter } from './microsoft.oauth-errors.ts';
import { foreignScope, parseScopes } from './microsoft.scopes.ts';
import { resolveTenant } from './microsoft.tenants.ts';

const AUTHORIZE_PATH = '/:tenant/oauth2/v2.0/authorize';
const DEFAULT_EMAIL = 'ada.lovelace@example.com';
const DEFAULT_NAME = 'Ada Lovelace';
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
  codeChallenge: string | undefined;
  codeChallengeMethod: PkceMethod | undefined;
};

/** Errors found before the redirect URI is trusted are shown on a page; later ones go back to the client. */
type Validation =
  | { ok: true; request: AuthorizeRequest }
  | { ok: false; page: AadError }
  | { ok: false; redirect: string; error: AadError; state: string | undefined };

type AuthorizeContext = {
  identity: IdentityStore;
  mailboxes: MailboxStore;
  clients: ReadonlyMap<string, MicrosoftClient>;
};

export function registerAuthorizeRoutes(app: FastifyInstance, context: AuthorizeContext): void {
  app.get(AUTHORIZE_PATH, async (request, reply) => {
    const params = readParams(request.query);
    const validation = validate((request.params as { tenant: string }).tenant, params, context.clients);
    if (!validation.ok) return sendFailure(reply, validation);
    if ((params.prompt ?? '') === 'none') {
      const error = new AadError(
        400,
        'login_required',
        50058,
        'A silent sign-in request was sent but no user is signed in.',
      );
      return sendFailure(reply, {
        ok: false,
        redirect: validation.request.redirectUri,
        error,
        state: params.state,
      });
    }
    const client = validation.request.client;
    const html = renderConsentPage({
      subtitle: `${client.name ?? client.clientId} wants to: ${validation.request.scopes.join(', ')}`,
      action: request.url.split('?')[0] ?? '/',
      hiddenFields: Object.fromEntries(CARRIED_PARAMS.map((name) => [name, params[name]])),
      email: params.login_hint || DEFAULT_EMAIL,
      name: DEFAULT_NAME,
    });
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
  });

  app.post(AUTHORIZE_PATH, async (request, reply) => {
    const params = readParams(request.body);
    const validation = validate((request.params as { tenant: string }).tenant, params, context.clients);
    if (!validation.ok) return sendFailure(reply, validation);
    const authorize = validation.request;
    if (params.decision === 'cancel') {
      const error = new AadError(400, 'access_denied', 65004, 'User declined to consent to access the app.');
      return sendFailure(reply, {
        ok: false,
        redirect: authorize.redirectUri,
        error,
        state: authorize.state,
      });
    }
    const email = (params.email ?? '').trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      return sendFailure(reply, {
        ok: false,
        page: new AadError(400, 'invalid_request', 50034, 'Enter a valid email address.'),
      });
    }
    const user = context.mailboxes.ensureUser({ email, name: (params.name ?? '').trim() });
    const code = context.identity.issueCode({
      clientId: authorize.client.clientId,
      redirectUri: authorize.redirectUri,
      scopes: authorize.scopes,
      codeChallenge: authorize.codeChallenge,
      codeChallengeMethod: authorize.codeChallengeMethod,
      userId: user.id,
      tenantId: authorize.tenantId,
    });
    return reply.redirect(appendQuery(authorize.redirectUri, { code, state: authorize.state }));
  });
}

function validate(
  tenant: string,
  params: Record<string, string>,
  clients: ReadonlyMap<string, MicrosoftClient>,
): Validation {
  const page = (error: AadError): Validation => ({ ok: false, page: error });
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
  if (!params.redirect_uri) return page(missingParameter('redirect_uri'));
  const registered = client.redirectUris;
  if (!parseRedirectUri(params.redirect_uri) || (registered && !registered.includes(params.redirect_uri))) {
    return page(
      new AadError(
        400,
        'invalid_request',
        50011,
        `The redirect URI '${params.redirect_uri}' specified in the request does not match the redirect URIs configured for the application '${client.clientId}'.`,
      ),
    );
  }
  const back = (error: AadError): Validation => ({
    ok: false,
    redirect: params.redirect_uri ?? '',
    error,
    state: params.state,
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
  const codeChallengeMethod = params.code_challenge
    ? parsePkceMethod(params.code_challenge_method)
    : undefined;
  if (params.code_challenge && !codeChallengeMethod) {
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
      redirectUri: params.redirect_uri,
      scopes,
      state: params.state,
      codeChallenge: params.code_challenge,
      codeChallengeMethod,
    },
  };
}

function sendFailure(reply: FastifyReply, failure: Exclude<Validation, { ok: true }>) {
  if ('page' in failure) {
    const html = renderConsentErrorPage(
      `AADSTS${failure.page.aadCode}: ${failure.page.error}`,
      failure.page.message,
    );
    return reply.code(400).type('text/html; charset=utf-8').send(html);
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

import type { FastifyInstance } from 'fastify';
import { type ConsentValidation, registerConsentFlow, sendErrorPage } from '../shared/oauth/consent-flow.ts';
import { appendQuery, checkRedirectUri } from '../shared/oauth/redirect-uri.ts';
import { readParams } from '../shared/params.ts';
import { renderErrorPage, renderSignInPage } from '../shared/sign-in-page.ts';
import type { TodoistContext } from './todoist.context.ts';

/** The scopes the TS SDK's `PERMISSIONS` lists. */
export const PERMISSIONS = [
  'task:add',
  'data:read',
  'data:read_write',
  'data:delete',
  'project:delete',
  'backups:read',
  'billing:read',
  'billing:read_write',
  'dev:app_console',
];

type Consent = { redirectUri: string; state: string; scopes: string[] };
/** A bad client or redirect URI is shown on a page; bad scopes go back to the app. */
type Failure = { heading: string; message: string } | { redirect: string };

/** Authorization page, token exchange and both revocation styles (RFC 7009 and `DELETE access_tokens`). */
export function registerOAuthRoutes(app: FastifyInstance, context: TodoistContext): void {
  const { accounts, store } = context;
  const appName = context.app.name ?? context.app.clientId;

  function check(params: Record<string, string>): ConsentValidation<Consent, Failure> {
    const fail = (heading: string, message: string) => ({
      ok: false as const,
      failure: { heading, message },
    });
    if (params.client_id !== context.app.clientId)
      return fail('Invalid client_id', 'No Todoist app has this client id.');
    const given = params.redirect_uri;
    const registered = context.app.redirectUri ? [context.app.redirectUri] : undefined;
    if (given !== undefined && checkRedirectUri(given, registered) !== 'ok') {
      return fail(
        'Invalid redirect_uri',
        'redirect_uri does not match the redirect URI registered for this app.',
      );
    }
    const redirectUri = given ?? context.app.redirectUri;
    if (!redirectUri)
      return fail('Redirect URI not configured', 'This app has no OAuth redirect URI configured.');
    if (!params.state) return fail('Missing state', 'The state parameter is required.');
    const scopes = (params.scope ?? '')
      .split(',')
      .map((scope) => scope.trim())
      .filter(Boolean);
    if (scopes.length === 0 || !scopes.every((scope) => PERMISSIONS.includes(scope))) {
      const redirect = appendQuery(redirectUri, { error: 'invalid_scope', state: params.state });
      return { ok: false, failure: { redirect } };
    }
    return { ok: true, request: { redirectUri, state: params.state, scopes } };
  }

  registerConsentFlow<Consent, Failure>(app, {
    path: '/oauth/authorize',
    carriedParams: ['client_id', 'scope', 'state', 'redirect_uri'],
    // Not a documented Todoist parameter; the emulator takes Google's and Microsoft's `login_hint`
    // so the product can offer the signed-in user's e-mail first. Real Todoist ignores it.
    loginHint: true,
    defaultAccount: { email: 'ada.lovelace@example.com', name: 'Ada Lovelace' },
    validate: check,
    renderPage: (consent, form) =>
      renderSignInPage({
        brand: 'todoist',
        title: `Authorize ${appName} (Todoist sandbox)`,
        subtitle: `${appName} would like access to your Todoist account: ${consent.scopes.join(', ')}`,
        ...form,
      }),
    sendFailure: (reply, failure) =>
      'redirect' in failure
        ? reply.redirect(failure.redirect)
        : sendErrorPage(reply, renderErrorPage({ brand: 'todoist', title: 'Todoist (sandbox)', ...failure })),
    declined: (consent, reply) =>
      reply.redirect(appendQuery(consent.redirectUri, { error: 'access_denied', state: consent.state })),
    invalidEmail: { heading: 'Invalid e-mail', message: 'Enter a valid e-mail address.' },
    approve: (consent, person) => {
      const user = store.upsertUser(person.email, person.name, context.clock.stamp());
      const code = accounts.codes.issue({
        clientId: context.app.clientId,
        userId: user.id,
        scopes: consent.scopes,
        redirectUri: consent.redirectUri,
      });
      return appendQuery(consent.redirectUri, { code, state: consent.state });
    },
  });

  app.post('/oauth/access_token', async (request, reply) => {
    const params = readParams(request.body);
    if (params.client_id !== context.app.clientId || params.client_secret !== context.app.clientSecret) {
      return reply.code(400).send({ error: 'incorrect_application_credentials' });
    }
    const lookup = params.code ? accounts.codes.take(params.code) : undefined;
    const code = lookup?.status === 'valid' ? lookup.code : undefined;
    if (!code || code.clientId !== context.app.clientId)
      return reply.code(400).send({ error: 'bad_authorization_code' });
    const accessToken = accounts.issueToken({
      userId: code.userId,
      kind: 'oauth',
      clientId: code.clientId,
      scopes: code.scopes,
    });
    return reply
      .header('cache-control', 'no-store')
      .send({ access_token: accessToken, token_type: 'Bearer' });
  });

  app.post('/api/v1/revoke', async (request, reply) => {
    const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const [clientId, clientSecret] = Buffer.from(basic ?? '', 'base64')
      .toString()
      .split(':');
    if (clientId !== context.app.clientId || clientSecret !== context.app.clientSecret) {
      return reply.code(401).header('www-authenticate', 'Basic').send({ error: 'invalid_client' });
    }
    const token = readParams(request.body).token;
    if (!token) return reply.code(400).send({ error: 'invalid_request' });
    // RFC 7009: an unknown token, or another client's, is answered with success too.
    if (accounts.token(token)?.clientId === clientId) accounts.revoke(token);
    return reply.type('application/json').send('null');
  });

  app.delete('/api/v1/access_tokens', async (request, reply) => {
    const params = readParams(request.query);
    if (params.client_id !== context.app.clientId || params.client_secret !== context.app.clientSecret) {
      return reply.code(400).send({ error: 'incorrect_application_credentials' });
    }
    if (params.access_token && accounts.token(params.access_token)?.clientId === params.client_id) {
      accounts.revoke(params.access_token);
    }
    return reply.type('application/json').send('null');
  });
}
